// Parsed JSON repeats the same text thousands of times (a parameter's description on every tool of an
// upstream: "How many results at most."; the tool names 100 agents pin), and JSON.parse makes each
// string of more than 10 characters anew. Strings of one document are shared here, in place: each
// value is kept once, whatever number of places say it. Strings never change, so sharing is safe.

/** Strings shorter than this cost about what the lookup would save (V8 shares ≤ 10 characters itself). */
export const SHARED_MIN_LENGTH = 16;
/** Deeper than this a document is not walked (a hostile upstream's nesting must not cost the walk). */
const MAX_DEPTH = 64;

/**
 * Replaces, in each of `roots` (JSON as parsed: objects, arrays, strings, numbers), every repeated
 * string value of `minLength` or more by one shared copy; answers how many values now point at an
 * earlier copy. A loop, not recursion; keys are left alone ("__proto__" among them: JSON.parse made
 * it a property of its own, so writing it never touches the prototype).
 */
export function shareStrings(roots: readonly unknown[], minLength = SHARED_MIN_LENGTH): number {
  const pool = new Map<string, string>();
  let shared = 0;
  const todo: Array<[value: unknown, depth: number]> = roots.map((r) => [r, 0]);
  while (todo.length > 0) {
    const [value, depth] = todo.pop()!;
    if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) continue;
    const o = value as Record<string, unknown>;
    for (const k of Array.isArray(value) ? value.keys() : Object.keys(o)) {
      const x = o[k as string];
      if (typeof x === 'string') {
        if (x.length < minLength) continue;
        const kept = pool.get(x);
        if (kept === undefined) pool.set(x, x);
        else {
          o[k as string] = kept;
          shared++;
        }
      } else if (typeof x === 'object' && x !== null) todo.push([x, depth + 1]);
    }
  }
  return shared;
}
