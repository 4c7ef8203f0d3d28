// Close names for a query nothing matched: names sharing a three-letter piece with the query are the
// candidates, and fuse.js ranks them (fuse.js over thousands of names would take far longer).
import Fuse from 'fuse.js';
import { NEAR_NAME_CHARS } from './limits.js';

/** How many names at most go to fuse.js for "close names"; it scans every candidate it is given (bounded work). */
const NEAR_CANDIDATES = 60;

export class NearNames {
  private readonly byTrigram = new Map<string, number[]>();
  /** Names indexed so far: the index is built in slices with the search index (warmInSlices), or at first use. */
  private done = 0;
  constructor(private readonly names: string[]) {}
  /** Indexes names for about `ms` (by `now`); answers whether every name is in. */
  buildFor(ms: number, now: () => number): boolean {
    const end = now() + ms;
    while (this.done < this.names.length) {
      const i = this.done++;
      for (const g of trigrams(this.names[i]!)) {
        const list = this.byTrigram.get(g);
        if (!list) this.byTrigram.set(g, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
      if (i % 64 === 63 && now() >= end) return this.done >= this.names.length;
    }
    return true;
  }
  private trigramIndex(): Map<string, number[]> {
    this.buildFor(Infinity, () => 0);
    return this.byTrigram;
  }
  find(rawQuery: string, limit: number): string[] {
    const query = rawQuery.slice(0, NEAR_NAME_CHARS);
    const counts = new Map<number, number>();
    const byTrigram = this.trigramIndex();
    for (const g of trigrams(query)) for (const i of byTrigram.get(g) ?? []) counts.set(i, (counts.get(i) ?? 0) + 1);
    if (counts.size === 0) return [];
    const candidates = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, NEAR_CANDIDATES)
      .map(([i]) => this.names[i]!);
    return new Fuse(candidates, { threshold: 0.45, ignoreLocation: true }).search(query, { limit }).map((r) => r.item);
  }
}

function trigrams(text: string): Set<string> {
  const t = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  const out = new Set<string>();
  for (let i = 0; i + 3 <= t.length; i++) {
    const g = t.slice(i, i + 3);
    if (!g.includes(' ')) out.add(g);
  }
  return out;
}
