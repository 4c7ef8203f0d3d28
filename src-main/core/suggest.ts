// "Did you mean": the closest known word, for mistyped commands, flags and config fields (core/fuzzy.ts).
export { closest } from './fuzzy.js';
