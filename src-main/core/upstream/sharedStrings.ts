// Tool lists repeat the same text thousands of times (a parameter's description on every tool of an
// upstream: "How many results at most."), and JSON.parse makes each a string of its own. Strings
// of one list are shared here, in place: each value is kept once, whatever number of tools say it.

/** Strings shorter than this cost about what the lookup would save. */
const MIN_LENGTH = 16;
/** Deeper than this a schema is not walked (a hostile upstream's nesting must not blow the stack). */
const MAX_DEPTH = 64;

/**
 * Replaces, in `tools`, every repeated string value of MIN_LENGTH or more by one shared copy; answers
 * how many values now point at an earlier copy.
 */
export function shareStrings(tools: readonly object[]): number {
  const pool = new Map<string, string>();
  let shared = 0;
  const share = (s: string): string => {
    const kept = pool.get(s);
    if (kept !== undefined) {
      shared++;
      return kept;
    }
    pool.set(s, s);
    return s;
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') {
          if (x.length >= MIN_LENGTH) v[i] = share(x);
        } else walk(x, depth + 1);
      }
      return;
    }
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (typeof x === 'string') {
        if (x.length >= MIN_LENGTH) o[k] = share(x);
      } else walk(x, depth + 1);
    }
  };
  for (const t of tools) walk(t, 0);
  return shared;
}
