// The config document as parsed JSON: read with its repeated strings held once, and copied without
// copying strings. A file whose 100 agents pin from the same 500 tools held 52,000 copies of 500 names
// (~1.5 MB), and structuredClone copied every string again at start and at each edit.
import { shareStrings } from '../sharedStrings.js';

/** V8 already shares parsed strings of 10 characters or fewer; tool names are often just longer. */
const CONFIG_SHARED_MIN_LENGTH = 11;

/** Shares, in place, the repeated strings of a config document just parsed (a file, or the database's row). */
export function shareConfigStrings(raw: unknown): number {
  return shareStrings([raw], CONFIG_SHARED_MIN_LENGTH);
}

/** JSON.parse, with the document's repeated strings held once. */
export function parseSharingStrings(text: string): unknown {
  const raw: unknown = JSON.parse(text);
  shareConfigStrings(raw);
  return raw;
}

/**
 * A copy of a JSON value (objects, arrays, strings, numbers, booleans, null) whose objects and arrays
 * are new and whose strings are the same. A loop, not recursion: any nesting JSON.parse takes is copied,
 * and the schema says what is wrong with it. "__proto__" stays a key (JSON.parse makes it one).
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const blank = (v: object): Record<string, unknown> => (Array.isArray(v) ? new Array<unknown>(v.length) : {}) as Record<string, unknown>;
  const root = blank(value);
  const todo: Array<[from: Record<string, unknown>, to: Record<string, unknown>]> = [[value as Record<string, unknown>, root]];
  while (todo.length > 0) {
    const [from, to] = todo.pop()!;
    for (const k of Object.keys(from)) {
      let v = from[k];
      if (typeof v === 'object' && v !== null) {
        const copy = blank(v);
        todo.push([v as Record<string, unknown>, copy]);
        v = copy;
      }
      if (k === '__proto__') Object.defineProperty(to, k, { value: v, enumerable: true, writable: true, configurable: true });
      else to[k] = v;
    }
  }
  return root as T;
}
