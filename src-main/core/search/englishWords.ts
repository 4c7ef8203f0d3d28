// Is this a real English word? Typo correction must leave real words alone ("bread" is not a typo of
// "read"). The list is the `word-list` package (MIT, ~274,000 words), read once by the first query word
// that needs a typo correction, and kept as the one string it is, searched in place: a Set of the words
// held three times the memory, and an index of line offsets 2.2 MB more (and 4 MB of garbage to build).
import wordListPath from 'word-list';
import { readFilePagedSync } from '../pagedBytes.js';

/** The list's words in code-unit order, one per line. */
let text = '';
/** The few words the file has out of code-unit order (two in word-list 4.1.0), left out of `text`. */
let outOfOrder = new Set<string>();
let state: 'unloaded' | 'loaded' | 'failed' = 'unloaded';

/**
 * `lines` (words, one per line) without its empty lines and the lines out of order, and those out of
 * order (hasLine needs every line it meets to be a word in order).
 */
export function sortedLines(lines: string): { text: string; outOfOrder: Set<string> } {
  const out = new Set<string>();
  const keep: string[] = [];
  let from = 0;
  let prev = '';
  let cut = false;
  for (let i = 0; i < lines.length;) {
    let end = lines.indexOf('\n', i);
    if (end < 0) end = lines.length;
    const w = lines.slice(i, end);
    if (w.length === 0 || w < prev) {
      // Cut out with its newline; the rest is kept as slices of the one string, joined once.
      if (w.length > 0) out.add(w);
      keep.push(lines.slice(from, i));
      from = end + 1;
      cut = true;
    } else prev = w;
    i = end + 1;
  }
  if (!cut) return { text: lines, outOfOrder: out };
  keep.push(lines.slice(from));
  return { text: keep.join(''), outOfOrder: out };
}

/**
 * Whether `word` is a line of `lines` (non-empty lines in code-unit order): a binary search over the
 * string's offsets, ~22 probes for the whole list (~2.5 µs a word, against ~0.75 with an offset index).
 */
export function hasLine(lines: string, word: string): boolean {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // The line holding `mid` (lastIndexOf reads a position of -1 as 0): lo <= start <= mid < hi.
    const start = mid === 0 ? 0 : lines.lastIndexOf('\n', mid - 1) + 1;
    let end = lines.indexOf('\n', start);
    if (end < 0) end = lines.length;
    const w = lines.slice(start, end);
    if (w === word) return word.length > 0;
    if (w < word) lo = end + 1;
    else hi = start;
  }
  return false;
}

function load(): boolean {
  if (state !== 'unloaded') return state === 'loaded';
  try {
    // 2.8 MB read paged: a malloc'd block of that size would raise the C allocator's threshold when freed (pagedBytes.ts).
    ({ text, outOfOrder } = sortedLines(readFilePagedSync(wordListPath).toString('utf8')));
    state = 'loaded';
  } catch {
    // Without the list, typo correction falls back to correcting any unknown word.
    state = 'failed';
    text = '';
    outOfOrder = new Set();
  }
  return state === 'loaded';
}

/** Whether the list has been read (it is read on first need: tests check that start-up does not). */
export function englishWordsLoaded(): boolean {
  return state === 'loaded';
}

/** True when `word` (lowercase) is in the English word list. */
export function isEnglishWord(word: string): boolean {
  if (!load()) return false;
  return outOfOrder.has(word) || hasLine(text, word);
}
