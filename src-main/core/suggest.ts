// "Did you mean": the closest known word, for mistyped commands, flags and config fields (core/fuzzy.ts).
import { editDistance } from './fuzzy.js';

export { closest } from './fuzzy.js';

/** Edits between two words (a swap of two letters is one). */
export function distance(a: string, b: string): number {
  return editDistance(a, b, Math.max(a.length, b.length));
}
