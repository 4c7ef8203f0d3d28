// Offline evaluation of a search engine on a catalog and a gold set: hit rates, MRR, recall, latency.
export type GoldQuery = { query: string; expected: string[] };
export type Ranker = (query: string, limit: number) => string[];

export type EvalResult = {
  n: number;
  top1: number;
  top3: number;
  top5: number;
  mrr: number;
  recall5: number;
  p50Ms: number;
  p99Ms: number;
  indexMs: number;
  misses: Array<{ query: string; expected: string[]; got: string[] }>;
};

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function evaluate(build: () => Ranker, gold: GoldQuery[]): EvalResult {
  const t0 = performance.now();
  const rank = build();
  const indexMs = performance.now() - t0;
  // One untimed pass first: latency is reported for a warmed-up engine, as a running proxy has.
  for (const g of gold) rank(g.query, 10);
  return tally(rank, gold, indexMs);
}

/**
 * Learning as it happens in use: each query is answered first, then its search→call is fed back
 * (`learn`) before the next one, so no query is scored with what its own answer taught. In order, once.
 */
export function evaluateOnline(build: () => Ranker, gold: GoldQuery[], learn: (g: GoldQuery, shown: string[]) => void): EvalResult {
  const t0 = performance.now();
  const rank = build();
  return tally(rank, gold, performance.now() - t0, learn);
}

function tally(rank: Ranker, gold: GoldQuery[], indexMs: number, after?: (g: GoldQuery, shown: string[]) => void): EvalResult {
  let top1 = 0,
    top3 = 0,
    top5 = 0,
    rr = 0,
    recall = 0;
  const times: number[] = [];
  const misses: EvalResult['misses'] = [];
  for (const g of gold) {
    const s = performance.now();
    const got = rank(g.query, 10);
    times.push(performance.now() - s);
    after?.(g, got);
    const pos = got.findIndex((name) => g.expected.includes(name));
    if (pos === 0) top1++;
    if (pos >= 0 && pos < 3) top3++;
    if (pos >= 0 && pos < 5) top5++;
    if (pos >= 0) rr += 1 / (pos + 1);
    recall += g.expected.filter((e) => got.slice(0, 5).includes(e)).length / g.expected.length;
    if (pos !== 0) misses.push({ query: g.query, expected: g.expected, got: got.slice(0, 3) });
  }
  const n = gold.length || 1;
  times.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    n: gold.length,
    top1: r(top1 / n),
    top3: r(top3 / n),
    top5: r(top5 / n),
    mrr: r(rr / n),
    recall5: r(recall / n),
    p50Ms: r(pct(times, 50)),
    p99Ms: r(pct(times, 99)),
    indexMs: r(indexMs),
    misses,
  };
}
