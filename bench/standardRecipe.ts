// The shipped hybrid beside the recipe most peers use: plain BM25 (MiniSearch over name, parameters and
// description) and the *same* sentence model, fused with min-max scores half and half, or with
// reciprocal rank fusion (k 60, equal shares). Top-1 / top-3 per set, no learning.
//   node --import tsx bench/standardRecipe.ts [--only SET,SET]
// MWS_MODEL_DIR picks the model folder (default: the shipped default); MWS_COMPARE_DIR keeps the tools'
// vectors between runs. Sets: bench/evalSets.ts (gold, second, verb-noun and long were tuned on).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox, type ToolEntry } from '../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../src-main/core/search/service.js';
import { evaluate, type EvalResult, type GoldQuery } from '../src-main/core/search/eval/evaluate.js';
import { evalVectors, type EvalVectors } from '../src-main/core/search/eval/evalVectors.js';
import { silentLogger } from '../src-main/core/log.js';
import { loadSet, plainBm25Ranking, type EVAL_SETS } from './evalSets.js';

const POOL = 50;
const arg = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const only = (arg('--only')?.split(',') ?? ['gold', 'second', 'third', 'metatool', 'verbnoun', 'long', 'long-heldout']) as Array<
  keyof typeof EVAL_SETS
>;
const cacheDir = process.env.MWS_COMPARE_DIR ?? mkdtempSync(join(tmpdir(), 'mws-recipe-'));

type Scored = Array<{ i: number; score: number }>;

function bm25(tools: Tool[]): (q: string) => Scored {
  const rank = plainBm25Ranking(tools);
  return (q) => rank(q).slice(0, POOL);
}

function cosines(entries: ToolEntry[], sem: EvalVectors, q: string): Scored {
  const qv = sem.query(q);
  if (!qv) throw new Error(`No vector for the query "${q}": the model did not load (${sem.warning ?? 'no warning'}).`);
  return entries
    .map((e, i) => {
      const v = sem.vectors.vector(e)!;
      let dot = 0;
      for (let d = 0; d < v.length; d++) dot += v[d]! * qv[d]!;
      return { i, score: dot };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, POOL);
}

function minMax(list: Scored): Map<number, number> {
  const hi = list[0]?.score ?? 0;
  const lo = list[list.length - 1]?.score ?? 0;
  return new Map(list.map((h) => [h.i, hi > lo ? (h.score - lo) / (hi - lo) : 1]));
}

function fused(lex: Scored, dense: Scored, how: 'minmax' | 'rrf'): number[] {
  const docs = new Set([...lex.map((h) => h.i), ...dense.map((h) => h.i)]);
  let score: (i: number) => number;
  if (how === 'rrf') {
    const lr = new Map(lex.map((h, r) => [h.i, r + 1]));
    const dr = new Map(dense.map((h, r) => [h.i, r + 1]));
    score = (i) => (lr.has(i) ? 1 / (60 + lr.get(i)!) : 0) + (dr.has(i) ? 1 / (60 + dr.get(i)!) : 0);
  } else {
    const l = minMax(lex);
    const d = minMax(dense);
    score = (i) => 0.5 * (l.get(i) ?? 0) + 0.5 * (d.get(i) ?? 0);
  }
  return [...docs]
    .map((i) => ({ i, s: score(i) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.i);
}

const cell = (r: EvalResult) => `${(r.top1 * 100).toFixed(1)} / ${(r.top3 * 100).toFixed(1)}`;
console.log('| set (queries, tools) | plain BM25 | BM25F | BM25 + model, min-max ½·½ | BM25 + model, RRF | **Working Set hybrid** |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const name of only) {
  const { tools, gold } = loadSet(name);
  const box = new Toolbox(new Map([['catalog', tools]]), false);
  const entries = [...box.all()];
  const sem = await evalVectors(
    box,
    gold.map((g) => g.query),
    silentLogger,
    cacheDir,
  );
  const lexical = bm25(entries.map((e) => e.tool));
  const names = (order: number[], k: number) => order.slice(0, k).map((i) => entries[i]!.name);
  const recipe = (how: 'minmax' | 'rrf') => (q: string, k: number) => names(fused(lexical(q), cosines(entries, sem, q), how), k);
  const run = (rank: (q: string, k: number) => string[]) => evaluate(() => rank, gold as GoldQuery[]);
  const service = (engine: 'bm25f' | 'hybrid') => {
    const s = new SearchService(() => box, {}, engine, undefined, engine === 'hybrid' ? sem.vectors : undefined);
    return (q: string, k: number) => s.resolve(q, k, undefined, sem.query(q)).entries.map((e) => e.name);
  };
  const cells = [
    run((q, k) =>
      names(
        lexical(q).map((h) => h.i),
        k,
      ),
    ),
    run(service('bm25f')),
    run(recipe('minmax')),
    run(recipe('rrf')),
    run(service('hybrid')),
  ].map(cell);
  console.log(`| ${name} (${gold.length}, ${tools.length}) | ${cells.join(' | ')} |`);
  await sem.stop();
}
