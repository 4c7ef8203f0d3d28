// The three evaluation sets, reported in CI with their targets: the demo gold set and the second set
// of real MCP servers' tools (both tuned on), and the third set (test/fixtures/third-catalog.json:
// ten other servers' tools, written before any tuning and never tuned on).
// The targets: gold ≥ 88 % top-1 / 98 % top-3; the real-server sets ≥ 80 % top-1. Only the gold
// target is asserted; the others fail only below a regression floor set just under their measured
// figures, and the test prints whether each target is met.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { SearchLearning } from '../../../src-main/core/search/learning.js';
import { evaluate, type EvalResult, type GoldQuery } from '../../../src-main/core/search/eval/evaluate.js';
import { splitGold } from '../../../src-main/core/search/eval/split.js';
import { ROOT } from '../../helpers/processes.js';

const read = <T>(f: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures', f), 'utf8')) as T;
const sets = {
  gold: { tools: read<{ tools: Tool[] }>('catalog.json').tools, gold: read<GoldQuery[]>('search-gold.json') },
  servers: { tools: read<{ tools: Tool[] }>('servers-catalog.json').tools, gold: read<GoldQuery[]>('search-servers.json') },
  third: { tools: read<{ tools: Tool[] }>('third-catalog.json').tools, gold: read<GoldQuery[]>('search-third.json') },
  learning: { tools: read<{ tools: Tool[] }>('servers-catalog.json').tools, gold: read<GoldQuery[]>('search-learning.json') },
  // An external set nobody here wrote, where many queries lead to each tool (test/fixtures/metatool/README.md).
  metatool: { tools: read<{ tools: Tool[] }>('metatool-catalog.json').tools, gold: read<GoldQuery[]>('search-metatool.json') },
};
/** Learning gains this much top-1 on the held-out half of a set where several queries lead to each tool. */
const LEARNING_TARGET = 0.15;
const REAL_SET_TARGET = 0.8;
const target = (top1: number) => `target ${REAL_SET_TARGET * 100} % top-1: ${top1 >= REAL_SET_TARGET ? 'met' : 'not met'}`;

function run(name: keyof typeof sets, test: GoldQuery[], train?: GoldQuery[]): EvalResult {
  const box = new Toolbox(new Map([['catalog', sets[name].tools]]), false);
  return evaluate(() => {
    const learning = train ? new SearchLearning({ now: () => 0, enabled: () => true }) : undefined;
    learning?.train(
      'eval',
      train!.map((g) => ({ query: g.query, tool: g.expected[0]! })),
    );
    const s = new SearchService(() => box, {}, 'bm25f', learning);
    return (q, k) => s.resolve(q, k, 'eval').entries.map((e) => e.name);
  }, test);
}
const fmt = (r: EvalResult) => `top-1 ${(r.top1 * 100).toFixed(1)}%, top-3 ${(r.top3 * 100).toFixed(1)}%, MRR ${r.mrr.toFixed(3)}`;

describe('search quality on both evaluation sets', () => {
  it('the demo gold set: at least 88 % top-1 and 98 % top-3', () => {
    const r = run('gold', sets.gold.gold);
    console.log(`gold set (${r.n} queries, ${sets.gold.tools.length} tools): ${fmt(r)}`);
    expect(r.top1).toBeGreaterThanOrEqual(0.88);
    expect(r.top3).toBeGreaterThanOrEqual(0.98);
  });

  it('the second set (13 real MCP servers): at least 150 tools, 120 queries, and no regression below its measured figures', () => {
    expect(sets.servers.tools.length).toBeGreaterThanOrEqual(150);
    expect(Object.keys(read<{ servers: object }>('servers-catalog.json').servers).length).toBeGreaterThanOrEqual(6);
    expect(sets.servers.gold.length).toBeGreaterThanOrEqual(120);
    const r = run('servers', sets.servers.gold);
    console.log(`second set (${r.n} queries, ${sets.servers.tools.length} tools): ${fmt(r)} (${target(r.top1)})`);
    // Measured 59.5 % / 79.1 % after the retune (52.3 % / 71.2 % before); 58.2 % / 78.4 % once a
    // synonym's idf is capped at the words the user wrote. The floor is one query below.
    expect(r.top1).toBeGreaterThanOrEqual(0.575);
    expect(r.top3).toBeGreaterThanOrEqual(0.777);
  });

  it('the third set (10 other real MCP servers, never tuned on): at least 150 tools from 6 servers, 120 queries, and no regression below its measured figures', () => {
    expect(sets.third.tools.length).toBeGreaterThanOrEqual(150);
    expect(Object.keys(read<{ servers: object }>('third-catalog.json').servers).length).toBeGreaterThanOrEqual(6);
    expect(sets.third.gold.length).toBeGreaterThanOrEqual(120);
    const r = run('third', sets.third.gold);
    console.log(`third set (${r.n} queries, ${sets.third.tools.length} tools): ${fmt(r)} (${target(r.top1)})`);
    // First measurement, before any tuning: 67.1 % / 83.9 %; after the retune on the other two sets
    // 69.0 % / 84.5 %. The floor is one query below.
    expect(r.top1).toBeGreaterThanOrEqual(0.683);
    expect(r.top3).toBeGreaterThanOrEqual(0.838);
  });

  it('learning: a repeated query finds its tool again; nothing is lost on held-out queries', () => {
    for (const name of ['gold', 'servers'] as const) {
      const all = sets[name].gold;
      const plain = run(name, all);
      const repeated = run(name, all, all);
      const { train, test } = splitGold(all, 0.5, 1, 'query');
      const half = [run(name, test), run(name, test, train)];
      const byTool = splitGold(all, 0.5, 1, 'tool');
      const apart = [run(name, byTool.test), run(name, byTool.test, byTool.train)];
      console.log(
        `${name}: repeated ${fmt(plain)} → ${fmt(repeated)}; 50/50 by query ${fmt(half[0]!)} → ${fmt(half[1]!)}; by tool ${fmt(apart[0]!)} → ${fmt(apart[1]!)}`,
      );
      expect(repeated.top1).toBeGreaterThanOrEqual(plain.top1);
      expect(half[1]!.top1).toBeGreaterThanOrEqual(half[0]!.top1);
      expect(apart[1]!.top1).toBeGreaterThanOrEqual(apart[0]!.top1);
    }
    const s = sets.servers.gold;
    expect(run('servers', s, s).top1 - run('servers', s).top1).toBeGreaterThanOrEqual(0.15);
  });

  it('learning on MetaTool (external, many queries per tool, never tuned on): +15 points top-1 on the held-out half', () => {
    const all = sets.metatool.gold;
    const gains = [1, 2, 3, 4].map((seed) => {
      const { train, test } = splitGold(all, 0.5, seed, 'query');
      return run('metatool', test, train).top1 - run('metatool', test).top1;
    });
    const mean = gains.reduce((a, b) => a + b, 0) / gains.length;
    const plain = run('metatool', all);
    console.log(
      `MetaTool (${all.length} queries, ${sets.metatool.tools.length} tools): ${fmt(plain)}; learning 50/50 by query, seeds 1-4: +${(mean * 100).toFixed(1)} points top-1 (target +${LEARNING_TARGET * 100}: ${mean >= LEARNING_TARGET ? 'met' : 'not met'})`,
    );
    expect(mean).toBeGreaterThanOrEqual(LEARNING_TARGET);
  });

  it('learning loses nothing where train and test share no tools (gold, second, third and learning sets)', () => {
    for (const name of ['gold', 'servers', 'third', 'learning'] as const) {
      for (const seed of [1, 2]) {
        const { train, test } = splitGold(sets[name].gold, 0.5, seed, 'tool');
        const [before, after] = [run(name, test), run(name, test, train)];
        expect(after.top1, `${name}, seed ${seed}`).toBeGreaterThanOrEqual(before.top1);
      }
    }
    // MetaTool's held-out tools include near twins of trained ones (ProductSearch beside Review, Discount
    // and TripTool; ResearchHelper beside ResearchFinder): words learned for one pull the other's queries.
    // Measured at its first measurement: −1.4 ± 0.3 points (seeds 1-8); the floor is just under it.
    const { train, test } = splitGold(sets.metatool.gold, 0.5, 1, 'tool');
    const loss = run('metatool', test, train).top1 - run('metatool', test).top1;
    console.log(`MetaTool, train and test share no tools (seed 1): ${(loss * 100).toFixed(1)} points top-1`);
    expect(loss).toBeGreaterThanOrEqual(-0.02);
  });
});
