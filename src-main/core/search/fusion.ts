// Fusing BM25F with the sentence model: a pure rule over two candidate lists. Each list's scores are
// scaled to the query (BM25F by its best score, cosine between the pool's floor and its best), then
// mixed linearly; measured against reciprocal rank fusion in docs/research/search.md.

export type Scored = { doc: number; score: number };

/** How the two rankings are combined; `lexicalShare` is the BM25F share of a linear mix. */
export type FusionRule = { kind: 'linear'; lexicalShare: number } | { kind: 'rrf'; k: number; lexicalShare: number };

/** Candidates from each ranking: enough that the right tool is among them (recall@50 ~ 99 % on every set). */
export const FUSION_POOL = 50;

/**
 * Fused ranking of the union of both candidate lists. `sim(doc)` gives any tool's cosine (the lexical
 * candidates outside the dense pool are scored too); a tool outside the lexical list has no BM25F score.
 */
export function fuse(
  lexical: readonly Scored[],
  dense: readonly Scored[],
  sim: (doc: number) => number,
  rule: FusionRule,
  limit: number,
): Scored[] {
  const lex = new Map(lexical.map((h) => [h.doc, h.score]));
  const docs = new Set<number>([...lexical.map((h) => h.doc), ...dense.map((h) => h.doc)]);
  let out: Scored[];
  if (rule.kind === 'rrf') {
    const lexRank = new Map(lexical.map((h, i) => [h.doc, i + 1]));
    const denseRank = new Map(dense.map((h, i) => [h.doc, i + 1]));
    out = [...docs].map((doc) => {
      const l = lexRank.get(doc);
      const d = denseRank.get(doc);
      return { doc, score: (l ? rule.lexicalShare / (rule.k + l) : 0) + (d ? (1 - rule.lexicalShare) / (rule.k + d) : 0) };
    });
  } else {
    const lexTop = lexical[0]?.score || 1;
    const simTop = dense[0]?.score ?? 0;
    // The pool's weakest similarity is this query's "unrelated" level: cosines are not comparable
    // across queries (a short query sits nearer everything), their spread within one query is.
    const simFloor = dense.length ? dense[dense.length - 1]!.score : 0;
    const spread = simTop - simFloor || 1;
    out = [...docs].map((doc) => {
      const l = (lex.get(doc) ?? 0) / lexTop;
      const d = Math.max(0, (sim(doc) - simFloor) / spread);
      return { doc, score: rule.lexicalShare * l + (1 - rule.lexicalShare) * d };
    });
  }
  out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return out.slice(0, limit);
}
