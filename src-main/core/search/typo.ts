// Typo tolerance: a query word the catalog does not know is matched to known words one or two
// edits away (transpositions count as one). A deletion index keeps lookups fast on large vocabularies.
import { MAX_TYPO_WORD_CHARS } from './limits.js';
import { editDistance } from '../fuzzy.js';

export { editDistance };

function deletes(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return [...out];
}

/** Maximum edits tolerated for a word of this length: short words are too easy to confuse. */
export function maxEdits(len: number): number {
  return len < 4 ? 0 : len < 8 ? 1 : 2;
}

export class TypoIndex {
  private readonly words = new Set<string>();
  /** first letter + length → words, for the rare two-substitution scan */
  private readonly buckets = new Map<string, string[]>();
  /** word with one letter removed → words it came from (and the word itself, under its own key) */
  private readonly byDelete = new Map<string, string[]>();

  add(word: string): void {
    if (this.words.has(word) || word.length < 3) return;
    this.words.add(word);
    const bucket = `${word[0]}${word.length}`;
    const b = this.buckets.get(bucket);
    if (b) b.push(word);
    else this.buckets.set(bucket, [word]);
    for (const key of [word, ...deletes(word)]) {
      const list = this.byDelete.get(key);
      if (list) list.push(word);
      else this.byDelete.set(key, [word]);
    }
  }

  has(word: string): boolean {
    return this.words.has(word);
  }

  /** Known words closest to `word`, nearest first; empty when none is close enough. */
  correct(word: string): string[] {
    const max = maxEdits(word.length);
    // Deletion forms grow as length²: a long word costs seconds and is never a typo of a real word.
    if (max === 0 || word.length > MAX_TYPO_WORD_CHARS || this.words.has(word)) return [];
    // Candidates share a one-deletion form with the word: that covers one edit of any kind, and most
    // two-edit typos of longer words; each candidate is then measured exactly.
    const candidates = new Set<string>();
    for (const key of [word, ...deletes(word)]) for (const w of this.byDelete.get(key) ?? []) candidates.add(w);
    if (max >= 2) {
      for (const d of deletes(word)) for (const dd of deletes(d)) for (const w of this.byDelete.get(dd) ?? []) candidates.add(w);
      // Two substitutions share no deletion form that is stored: scan words of about the same length
      // that begin alike (typos rarely hit the first letter). Only long unknown words get here.
      if (candidates.size === 0) {
        for (let len = word.length - 2; len <= word.length + 2; len++)
          for (const w of this.buckets.get(`${word[0]}${len}`) ?? []) candidates.add(w);
      }
    }
    let best = max + 1;
    let found: string[] = [];
    for (const c of candidates) {
      const d = editDistance(word, c, max);
      if (d < best) {
        best = d;
        found = [c];
      } else if (d === best) found.push(c);
    }
    return best <= max ? found.sort() : [];
  }
}
