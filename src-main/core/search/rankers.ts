// The ranking each search engine gives: BM25F alone, plain BM25 (MiniSearch), the sentence model
// alone, or both fused (what ships). Without a query vector or the tools' vectors (the model not
// ready, or failed), BM25F answers alone.
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { SearchIndex, TermBoost } from './index.js';
import { MiniSearchEngine } from './miniSearchEngine.js';
import type { DenseIndex } from './denseIndex.js';
import { FUSION_POOL, fuse, type FusionRule } from './fusion.js';

/** bm25f: words only; dense: the sentence model only; hybrid: both, fused (what ships); minisearch: plain BM25. */
export type SearchEngine = 'bm25f' | 'minisearch' | 'dense' | 'hybrid';

/**
 * The fusion that ships: a linear mix of BM25F (scaled by the query's best score) and cosine (scaled
 * between the candidate pool's floor and best). Chosen on the tuning sets (docs/research/search.md).
 */
export const FUSION: FusionRule = { kind: 'linear', lexicalShare: 0.6 };

/** Per tool (doc), the cosine of the nearest earlier request that led there (queryMemory.ts). */
export type Earlier = ReadonlyMap<number, number>;

/** `qv`: the query's sentence vector, when the model is ready (engines without one ignore it). */
export type Ranker = {
  search(
    query: string,
    limit: number,
    within?: (e: ToolEntry) => boolean,
    boost?: TermBoost,
    qv?: Float32Array,
    earlier?: Earlier,
  ): Array<{ entry: ToolEntry; score: number }>;
};

/** `lexicalShare`: the model's own share of the fusion (model.json), when it names one. */
export function rankerFor(
  engine: SearchEngine,
  bm25f: SearchIndex,
  entries: ToolEntry[],
  vectors: () => DenseIndex | undefined,
  lexicalShare: () => number | undefined,
): Ranker {
  if (engine === 'bm25f') return bm25f;
  if (engine === 'minisearch') {
    const mini = new MiniSearchEngine(entries, bm25f);
    return { search: (q, k, within) => mini.rank(q, k, within) };
  }
  const dense = engine === 'dense';
  return {
    // Without a query vector or the tools' vectors (model not ready, or failed), BM25F answers alone.
    search: (q, k, within, boost, qv, earlier) => {
      const v = qv && vectors();
      if (!qv || !v) return bm25f.search(q, k, within, boost);
      // An earlier request that led to a tool is one more text of it: its similarity is the nearer of the two.
      const sim = earlier ? (doc: number) => Math.max(v.sim(doc, qv), earlier.get(doc) ?? -1) : (doc: number) => v.sim(doc, qv);
      let near = v.nearest(qv, dense ? k : FUSION_POOL, within);
      if (earlier) {
        const pool = new Set([...near.map((h) => h.doc), ...[...earlier.keys()].filter((doc) => !within || within(entries[doc]!))]);
        near = [...pool]
          .map((doc) => ({ doc, score: sim(doc) }))
          .sort((a, b) => b.score - a.score || a.doc - b.doc)
          .slice(0, near.length);
      }
      if (dense) return near.map((h) => ({ entry: entries[h.doc]!, score: h.score }));
      const lexical = bm25f.search(q, FUSION_POOL, within, boost).map((h) => ({ doc: bm25f.docOf(h.entry.name), score: h.score }));
      const share = lexicalShare();
      const rule = share === undefined ? FUSION : { ...FUSION, lexicalShare: share };
      return fuse(lexical, near, sim, rule, k).map((h) => ({ entry: entries[h.doc]!, score: h.score }));
    },
  };
}
