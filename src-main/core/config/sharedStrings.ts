// Parsed config JSON whose equal strings are one string. JSON.parse makes each string value past 10
// characters anew: a file whose 100 agents pin from the same 500 tools held 52,000 copies of 500 names
// (~1.5 MB), and structuredClone copies every string again. Strings never change, so sharing is safe.

/** JSON.parse, with every string value that occurs more than once held once. */
export function parseSharingStrings(text: string): unknown {
  const raw: unknown = JSON.parse(text);
  shareStrings(raw);
  return raw;
}

/**
 * Replaces, in place, each string value inside `root` (arrays and objects, nested) by the first equal
 * one seen. A loop, not recursion: JSON.parse takes nesting deeper than the stack would, and the
 * schema, not this walk, says what is wrong with such a file. A key of JSON.parse's own, "__proto__"
 * included, is a plain property here: writing it never touches the prototype.
 */
function shareStrings(root: unknown): void {
  const seen = new Map<string, string>();
  const once = (s: string): string => {
    const first = seen.get(s);
    if (first !== undefined) return first;
    seen.set(s, s);
    return s;
  };
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const value = todo.pop();
    if (typeof value !== 'object' || value === null) continue;
    const obj = value as Record<string, unknown>;
    for (const k of Array.isArray(value) ? value.keys() : Object.keys(obj)) {
      const v = obj[k as string];
      if (typeof v === 'string') obj[k as string] = once(v);
      else if (typeof v === 'object' && v !== null) todo.push(v);
    }
  }
}

/** A copy of a JSON value (objects, arrays, strings, numbers, booleans, null) whose objects and arrays are new and whose strings are the same. */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => cloneJson(v)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // JSON.parse keeps "__proto__" as a key of its own; an assignment would set the prototype instead.
    if (k === '__proto__') Object.defineProperty(out, k, { value: cloneJson(v), enumerable: true, writable: true, configurable: true });
    else out[k] = cloneJson(v);
  }
  return out as T;
}
