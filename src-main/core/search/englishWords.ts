// Is this a real English word? Typo correction must leave real words alone ("bread" is not a typo of
// "read"). The list is the `word-list` package (MIT, ~274,000 words), read once by the first query word
// that needs a typo correction, and kept as one string with line offsets for binary search (a third
// of the memory a Set of the words would hold).
import wordListPath from 'word-list';
import { readFilePagedSync } from '../pagedBytes.js';

let text = '';
/** Start offsets of the words in sorted order, and one past the end of each (the newline). */
let starts = new Int32Array(0);
let ends = new Int32Array(0);
/** The few words the file has out of code-unit order (two in word-list 4.1.0). */
let outOfOrder = new Set<string>();
let state: 'unloaded' | 'loaded' | 'failed' = 'unloaded';

function load(): boolean {
  if (state !== 'unloaded') return state === 'loaded';
  try {
    // 2.8 MB read paged: a malloc'd block of that size would raise the C allocator's threshold when freed (pagedBytes.ts).
    text = readFilePagedSync(wordListPath).toString('utf8');
    const s: number[] = [];
    const e: number[] = [];
    let prev = '';
    for (let i = 0; i < text.length;) {
      let end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
      const w = text.slice(i, end);
      if (w.length > 0) {
        if (w < prev) outOfOrder.add(w);
        else {
          s.push(i);
          e.push(end);
          prev = w;
        }
      }
      i = end + 1;
    }
    starts = Int32Array.from(s);
    ends = Int32Array.from(e);
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
  if (outOfOrder.has(word)) return true;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const w = text.slice(starts[mid]!, ends[mid]!);
    if (w === word) return true;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
