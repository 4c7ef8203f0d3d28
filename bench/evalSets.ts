// Quality on the evaluation sets, Working Set beside plain BM25 (MiniSearch over name, parameters
// and description): `node --import tsx bench/evalSets.ts [--misses SET] [--only SET,SET]`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../src-main/core/search/service.js';
import { splitWords } from '../src-main/core/search/text.js';
import { evaluate, type EvalResult, type GoldQuery } from '../src-main/core/search/eval/evaluate.js';
import { ROOT } from '../test/helpers/processes.js';
import { verbNounCatalog } from './verbNounCatalog.js';
import { longRequestCatalog } from './longRequestCatalog.js';

const read = <T>(f: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures', f), 'utf8')) as T;
export const EVAL_SETS = {
  gold: { catalog: 'catalog.json', queries: 'search-gold.json' },
  second: { catalog: 'servers-catalog.json', queries: 'search-servers.json' },
  third: { catalog: 'third-catalog.json', queries: 'search-third.json' },
  learning: { catalog: 'servers-catalog.json', queries: 'search-learning.json' },
  metatool: { catalog: 'metatool-catalog.json', queries: 'search-metatool.json' },
  'metatool-two-tool': { catalog: 'metatool-catalog.json', queries: 'search-metatool-multi.json' },
  /** Generated (bench/verbNounCatalog.ts): 4,000 verb-noun tools. */
  verbnoun: { catalog: '', queries: '' },
  /** Generated (bench/longRequestCatalog.ts): 4,000 tools, requests of 15–40 words; tuned on. */
  long: { catalog: '', queries: '' },
  /** The same shape in other templates and another seed: never tuned on. */
  'long-heldout': { catalog: '', queries: '' },
} as const;

/** A set's tools and queries (the generated one is made, the others read). */
export function loadSet(name: keyof typeof EVAL_SETS): { tools: Tool[]; gold: GoldQuery[] } {
  if (name === 'verbnoun') return verbNounCatalog();
  if (name === 'long') return longRequestCatalog('tune');
  if (name === 'long-heldout') return longRequestCatalog('heldout');
  const f = EVAL_SETS[name];
  return { tools: read<{ tools: Tool[] }>(f.catalog).tools, gold: read<GoldQuery[]>(f.queries) };
}

/** Plain BM25 as peers run it: MiniSearch over name, parameters and description; hits by tool index, best first. */
export function plainBm25Ranking(tools: Tool[]): (q: string) => Array<{ i: number; score: number }> {
  const mini = new MiniSearch<{ id: number; name: string; params: string; desc: string }>({
    fields: ['name', 'params', 'desc'],
    tokenize: (t) => splitWords(t),
  });
  mini.addAll(
    tools.map((t, id) => ({
      id,
      name: t.name,
      params: JSON.stringify((t.inputSchema as { properties?: object }).properties ?? {}),
      desc: t.description ?? '',
    })),
  );
  return (q) => mini.search(q).map((r) => ({ i: r.id as number, score: r.score }));
}

export function plainBm25(tools: Tool[], gold: GoldQuery[]): EvalResult {
  return evaluate(() => {
    const rank = plainBm25Ranking(tools);
    return (q, k) =>
      rank(q)
        .slice(0, k)
        .map((r) => tools[r.i]!.name);
  }, gold);
}

export function workingSet(tools: Tool[], gold: GoldQuery[]): EvalResult {
  const box = new Toolbox(new Map([['catalog', tools]]), false);
  return evaluate(() => {
    const s = new SearchService(() => box, {}, 'bm25f');
    return (q, k) => s.resolve(q, k).entries.map((e) => e.name);
  }, gold);
}

const pct = (r: EvalResult) =>
  `${(r.top1 * 100).toFixed(1)} % / ${(r.top3 * 100).toFixed(1)} % / ${r.mrr.toFixed(3)} / ${(r.recall5 * 100).toFixed(1)} %`;
if (process.argv[1]?.endsWith('evalSets.ts')) {
  const misses = process.argv.indexOf('--misses') > 0 ? process.argv[process.argv.indexOf('--misses') + 1] : undefined;
  const only = process.argv.indexOf('--only') > 0 ? process.argv[process.argv.indexOf('--only') + 1]!.split(',') : Object.keys(EVAL_SETS);
  console.log('set                              Working Set top-1/top-3/MRR/recall@5     plain BM25');
  for (const name of Object.keys(EVAL_SETS) as Array<keyof typeof EVAL_SETS>) {
    if (!only.includes(name)) continue;
    const { tools, gold } = loadSet(name);
    const ws = workingSet(tools, gold);
    console.log(`${`${name} (${gold.length} q, ${tools.length} tools)`.padEnd(32)} ${pct(ws).padEnd(40)} ${pct(plainBm25(tools, gold))}`);
    if (misses === name) for (const m of ws.misses) console.log(`  ${m.query}  →  ${m.got.join(', ')}   (want ${m.expected.join(' | ')})`);
  }
}
