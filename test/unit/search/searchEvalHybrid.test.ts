// The engine that ships (hybrid: BM25F fused with the shipped sentence model) on the sets CI reports,
// with floors just under what was measured (docs/research/search.md). The tools' vectors are kept between runs
// in .test-cache/ (git-ignored, by definition hash), so a clean clone computes them once: ~470 tools and
// ~420 queries: 21 s of CPU (2 min 15 s of wall time on the shared, loaded 2-core machine).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { evaluate, type GoldQuery } from '../../../src-main/core/search/eval/evaluate.js';
import { evalVectors } from '../../../src-main/core/search/eval/evalVectors.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { ROOT } from '../../helpers/processes.js';

const read = <T>(f: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures', f), 'utf8')) as T;
/**
 * Floors: the lower of two machines' measured top-1 / top-3 with the committed model, less one query
 * (int8 products round differently by CPU: an AVX-512 VNNI EPYC gave a query fewer on gold and second).
 */
const SETS = [
  // The target for the demo gold set: 92 % / 99 %. Measured 93.7 / 99.1 and 92.8 / 99.1 % (tool texts cut at 96 tokens).
  { name: 'gold', catalog: 'catalog.json', gold: 'search-gold.json', top1: 0.918, top3: 0.981 },
  // Tuned on; target 80 % top-1. Measured 68.0 / 88.2 and 67.3 / 88.2 %.
  { name: 'second', catalog: 'servers-catalog.json', gold: 'search-servers.json', top1: 0.666, top3: 0.875 },
  // Never tuned on; target 80 % top-1. Measured 78.7 / 92.3 and 78.1 / 92.3 % at 96 tokens (the limit
  // was chosen on the tuning sets before this set was measured with it).
  { name: 'third', catalog: 'third-catalog.json', gold: 'search-third.json', top1: 0.774, top3: 0.916 },
] as const;

describe('the hybrid engine with the shipped model', () => {
  for (const set of SETS) {
    it(`${set.name}: no regression below its measured figures`, async () => {
      const tools = read<{ tools: Tool[] }>(set.catalog).tools;
      const gold = read<GoldQuery[]>(set.gold);
      const box = new Toolbox(new Map([['catalog', tools]]), false);
      const t0 = performance.now();
      const log = new MemoryLogger();
      const sem = await evalVectors(
        box,
        gold.map((g) => g.query),
        log,
        join(ROOT, '.test-cache', 'vectors', set.name),
      );
      const embedMs = performance.now() - t0;
      try {
        expect(sem.warning, 'the shipped model loads').toBeUndefined();
        const s = new SearchService(() => box, {}, 'hybrid', undefined, sem.vectors);
        const r = evaluate(() => (q, k) => s.resolve(q, k, 'eval', sem.query(q)).entries.map((e) => e.name), gold);
        const lexical = evaluate(() => {
          const b = new SearchService(() => box, {}, 'bm25f');
          return (q, k) => b.resolve(q, k).entries.map((e) => e.name);
        }, gold);
        console.log(
          `${set.name} (${gold.length} queries, ${tools.length} tools): hybrid top-1 ${(r.top1 * 100).toFixed(1)} %, top-3 ${(r.top3 * 100).toFixed(1)} % (BM25F ${(lexical.top1 * 100).toFixed(1)} % / ${(lexical.top3 * 100).toFixed(1)} %); vectors ${Math.round(embedMs)} ms`,
        );
        expect(r.top1).toBeGreaterThanOrEqual(set.top1);
        expect(r.top3).toBeGreaterThanOrEqual(set.top3);
      } finally {
        await sem.stop();
      }
    }, 600_000);
  }
});
