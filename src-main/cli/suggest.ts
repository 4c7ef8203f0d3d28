// The CLI's words for people: "did you mean" (core/suggest.ts, shared with the config's errors) and counts.
export { closest } from '../core/suggest.js';

/** "1 tool", "2 tools". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
