// Learning from the agent's past requests, measured on the tuning sets only (never MetaTool, ToolBench,
// ToolLens, COLT, Seal-Tools or LiveMCPBench data): each set is split in half by query (seeds 1–4), the
// training half is taken as the agent's past searches that led to their tool, and the held-out half is
// ranked without learning, with learned words only (what shipped before), and with words plus the
// past requests' vectors (queryMemory.ts), for a grid of the lift rule's two numbers.
//
//   node --import tsx bench/searchLearning.ts [--sets gold,second,learning] [--grid] [--by tool]
//
// The tools' vectors are kept in .test-cache/vectors/<set> (as the CI eval test keeps them).
import { join } from 'node:path';
import { Toolbox } from '../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../src-main/core/search/service.js';
import { SearchLearning } from '../src-main/core/search/learning.js';
import { evaluate, type GoldQuery } from '../src-main/core/search/eval/evaluate.js';
import { evalVectors } from '../src-main/core/search/eval/evalVectors.js';
import { splitGold } from '../src-main/core/search/eval/split.js';
import type { QueryMemoryTuning } from '../src-main/core/search/queryMemory.js';
import { silentLogger } from '../src-main/core/log.js';
import { ROOT } from '../test/helpers/processes.js';
import { loadSet } from './evalSets.js';

const TUNING = ['gold', 'second', 'learning'] as const;
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const sets = (arg('--sets')?.split(',') ?? [...TUNING]) as Array<
  'gold' | 'second' | 'learning' | 'third' | 'verbnoun' | 'long' | 'long-heldout'
>;
for (const s of sets)
  if (!['gold', 'second', 'learning', 'third', 'verbnoun', 'long', 'long-heldout'].includes(s))
    throw new Error(`not a tuning set here: ${s}`);
const by = (arg('--by') ?? 'query') as 'query' | 'tool';
const seeds = [1, 2, 3, 4];
const grid: Array<QueryMemoryTuning | 'words' | 'none'> = process.argv.includes('--grid')
  ? ['none', 'words', ...[0.5, 0.6, 0.7].flatMap((nearCosine) => [0, 0.05, 0.1, 0.15].map((margin) => ({ nearCosine, margin })))]
  : ['none', 'words', {}];
const label = (g: (typeof grid)[number]) =>
  typeof g === 'string' ? g : g.nearCosine === undefined ? 'words + requests (ships)' : `requests cos−${g.margin} ≥ ${g.nearCosine}`;

for (const name of sets) {
  const { tools, gold } = loadSet(name);
  const box = new Toolbox(new Map([['catalog', tools]]), false);
  const sem = await evalVectors(
    box,
    gold.map((g) => g.query),
    silentLogger,
    join(ROOT, '.test-cache', 'vectors', name),
  );
  const model = sem.vectors.model?.();
  if (!model) throw new Error(`the model did not load: ${sem.warning}`);
  const vectorOf = (q: string) => {
    const v = sem.query(q);
    return v ? { v, model } : undefined;
  };
  const rows = grid.map((g) => ({ g, top1: [] as number[], top3: [] as number[] }));
  for (const seed of seeds) {
    const { train, test } = splitGold(gold, 0.5, seed, by);
    for (const row of rows) {
      const r = evaluate(() => {
        const g = row.g;
        const learning =
          g === 'none'
            ? undefined
            : new SearchLearning({ now: () => Date.now(), enabled: () => true, ...(g === 'words' ? {} : { vectorOf, memoryTuning: g }) });
        learning?.train(
          'eval',
          train.map((t: GoldQuery) => ({ query: t.query, tool: t.expected[0]! })),
        );
        const s = new SearchService(() => box, {}, 'hybrid', learning, sem.vectors);
        s.warm();
        return (q, k) => s.resolve(q, k, 'eval', sem.query(q)).entries.map((e) => e.name);
      }, test);
      row.top1.push(r.top1);
      row.top3.push(r.top3);
    }
  }
  const mean = (xs: number[]) => (100 * xs.reduce((a, b) => a + b, 0)) / xs.length;
  const base = mean(rows[0]!.top1);
  console.log(`${name} (${gold.length} q, ${tools.length} tools), split 0.5 by ${by}, seeds 1-4, held-out top-1 / top-3:`);
  for (const row of rows) {
    const gains = row.top1.map((x, i) => 100 * (x - rows[0]!.top1[i]!));
    console.log(
      `  ${label(row.g).padEnd(24)} ${mean(row.top1).toFixed(1)} / ${mean(row.top3).toFixed(1)}   (${mean(row.top1) - base >= 0 ? '+' : ''}${(mean(row.top1) - base).toFixed(1)}; min ${Math.min(...gains).toFixed(1)})`,
    );
  }
  await sem.stop();
}
