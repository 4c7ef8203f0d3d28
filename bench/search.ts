// Search at scale: a generated 5,000-tool catalog, the hand BM25F engine and MiniSearch side by side,
// and search_tools as it ships (hybrid: the query embedded by the sentence model, then fused).
// Targets: query p50 < 1 ms, p99 < 5 ms, index build < 150 ms, no reply above 6 KB; hybrid p99 ≤ 30 ms.
// The 5,000 tools' vectors are kept in the OS temp folder between runs (embedding them takes ~80 s once).
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Tool } from '@modelcontextprotocol/client';
import { SearchLearning } from '../src-main/core/search/learning.js';
import { splitGold } from '../src-main/core/search/eval/split.js';
import { join } from 'node:path';
import { Toolbox } from '../src-main/core/toolbox/toolbox.js';
import { SearchService, type SearchEngine } from '../src-main/core/search/service.js';
import { SEARCH_REPLY_MAX_BYTES } from '../src-main/core/search/reply.js';
import { evaluate, type EvalResult, type GoldQuery } from '../src-main/core/search/eval/evaluate.js';
import { ROOT } from '../test/helpers/processes.js';
import { generateCatalog } from './genCatalog.js';
import { plainBm25 } from './evalSets.js';
import { DEMO_TOOLS } from '../src-main/core/demo/tools.js';
import { fmt, summarize } from './stats.js';
import { ToolVectors } from '../src-main/core/search/embed/toolVectors.js';
import { silentLogger } from '../src-main/core/log.js';

const COUNT = Number(process.env.BENCH_TOOLS ?? 5000);
const { tools, gold } = generateCatalog(COUNT);
const extraQueries = [
  'create a bug in jira',
  'github',
  'stripe refund',
  'slack send message to room',
  'list all customers',
  'delete webhook',
  '',
  'jira update',
  'kubernetes deployment rollout status',
  'find the outage alert in pagerduty',
  'qwertyuiop',
  'сообщение',
  'メッセージを送る',
];
const queries = [...gold.map((g) => g.query), ...extraQueries];

const results: Record<string, unknown> = {};
console.log(`search at scale: ${tools.length} tools, ${queries.length} queries (${gold.length} with a known answer)\n`);
console.log('engine       index ms   p50 ms   p99 ms   max reply B   top-1   top-3');
for (const engine of ['bm25f', 'minisearch'] as SearchEngine[]) {
  const indexTimes: number[] = [];
  let service!: SearchService;
  for (let i = 0; i < 5; i++) {
    const tb = new Toolbox(new Map([['catalog', tools]]), false);
    service = new SearchService(() => tb, {}, engine);
    const t0 = performance.now();
    service.warm();
    indexTimes.push(performance.now() - t0);
  }
  for (let i = 0; i < 3; i++) for (const q of queries) service.search(q, undefined, () => false);
  const times: number[] = [];
  let maxReply = 0;
  for (let round = 0; round < 20; round++) {
    for (const q of queries) {
      const t0 = performance.now();
      const a = service.search(q, undefined, () => false);
      times.push(performance.now() - t0);
      if (a.kind !== 'exact') maxReply = Math.max(maxReply, Buffer.byteLength(a.text));
    }
  }
  const s = summarize(times);
  const idx = summarize(indexTimes);
  const quality = evaluate(() => (q, k) => service.resolve(q, k).entries.map((e) => e.name), gold);
  console.log(
    `${engine.padEnd(12)} ${fmt(idx.p50).padStart(8)} ${fmt(s.p50).padStart(8)} ${fmt(s.p99).padStart(8)} ${String(maxReply).padStart(13)}   ${(quality.top1 * 100).toFixed(1).padStart(5)}%  ${(quality.top3 * 100).toFixed(1).padStart(5)}%`,
  );
  results[engine] = { indexMs: idx.p50, p50Ms: s.p50, p99Ms: s.p99, maxReplyBytes: maxReply, top1: quality.top1, top3: quality.top3 };
}
// Adversarial input: long random words, a 500-word query, a 1 MB query, as search_tools
// queries and as unknown tool names (the close-name lookup). Median and worst of 7 runs after 3 warm-ups
// (on a shared 2-core machine the worst run is mostly other processes' time slices).
const rand = (() => {
  let x = 99;
  return () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
})();
const randomWord = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
const adversarial: Array<[string, string]> = [
  ['30-letter word', randomWord(30)],
  ['1,200-letter word', randomWord(1200)],
  ['500 random words', Array.from({ length: 500 }, () => randomWord(9)).join(' ')],
  ['40 misspelt words', Array.from({ length: 40 }, () => 'mesage').join(' ')],
  ['1 MB query', Array.from({ length: 100_000 }, () => randomWord(9)).join(' ')],
];
const worst = (fn: () => unknown): [number, number] => {
  for (let i = 0; i < 3; i++) fn();
  const t: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return [t[3]!, t[6]!];
};
const demoBox = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);
const bigBox = new Toolbox(new Map([['catalog', tools]]), false);
const demoService = new SearchService(() => demoBox);
const bigService = new SearchService(() => bigBox);
console.log(`\nadversarial input, median/worst ms   demo search     demo name   ${tools.length} search     ${tools.length} name`);
let worstDemo = 0;
let worstBig = 0;
const adv: Record<string, number[]> = {}; // median ms: demo search, demo name, big search, big name
for (const [label, q] of adversarial) {
  const row = [
    worst(() => demoService.search(q, undefined, () => false)),
    worst(() => demoService.closeNames(q, 3)),
    worst(() => bigService.search(q, undefined, () => false)),
    worst(() => bigService.closeNames(q, 3)),
  ];
  worstDemo = Math.max(worstDemo, row[0]![0], row[1]![0]);
  worstBig = Math.max(worstBig, row[2]![0], row[3]![0]);
  adv[label] = row.map((x) => x[0]);
  console.log(`${label.padEnd(36)} ${row.map(([m, w]) => `${fmt(m)}/${fmt(w)}`.padStart(13)).join(' ')}`);
}
results.adversarial = adv;

// Quality on both evaluation sets beside plain BM25 (MiniSearch over name, parameters and description,
// no synonyms, typo correction or learning), and with learning (50/50 split by query, and a repeated set).
const readFixture = <T>(f: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures', f), 'utf8')) as T;
const sets = [
  ['demo gold', readFixture<{ tools: Tool[] }>('catalog.json').tools, readFixture<GoldQuery[]>('search-gold.json')],
  ['second set', readFixture<{ tools: Tool[] }>('servers-catalog.json').tools, readFixture<GoldQuery[]>('search-servers.json')],
  ['third set (never tuned on)', readFixture<{ tools: Tool[] }>('third-catalog.json').tools, readFixture<GoldQuery[]>('search-third.json')],
] as const;
const pctOf = (r: EvalResult) => `${(r.top1 * 100).toFixed(1)}/${(r.top3 * 100).toFixed(1)}/${r.mrr.toFixed(3)}`;
console.log(
  '\nquality, top-1 %/top-3 %/MRR   plain BM25          Working Set         50/50 unlearned     50/50 learned       repeated learned',
);
const quality: Record<string, Record<string, number>> = {};
for (const [label, catalog, gold] of sets) {
  const box = new Toolbox(new Map([['catalog', [...catalog]]]), false);
  const plain = plainBm25([...catalog], gold);
  const ws = (test: GoldQuery[], train?: GoldQuery[]) =>
    evaluate(() => {
      const learning = train ? new SearchLearning({ now: () => 0, enabled: () => true }) : undefined;
      learning?.train(
        'bench',
        train!.map((g) => ({ query: g.query, tool: g.expected[0]! })),
      );
      const service = new SearchService(() => box, {}, 'bm25f', learning);
      return (q, k) => service.resolve(q, k, 'bench').entries.map((e) => e.name);
    }, test);
  const { train, test } = splitGold([...gold], 0.5, 1, 'query');
  const row = [plain, ws([...gold]), ws(test), ws(test, train), ws([...gold], [...gold])];
  console.log(`${label.padEnd(31)} ${row.map((r) => pctOf(r).padEnd(19)).join(' ')}`);
  quality[label] = {
    plainTop1: plain.top1,
    top1: row[1]!.top1,
    top3: row[1]!.top3,
    mrr: row[1]!.mrr,
    splitUnlearned: row[2]!.top1,
    splitLearned: row[3]!.top1,
    repeatedLearned: row[4]!.top1,
  };
}
results.quality = quality;

// Latency on real-length descriptions: the second and third sets' 404 real tools (23 servers), copied
// under 13 vendor names (5,252 tools), queried with both sets' queries.
const realTools = [
  ...readFixture<{ tools: Tool[] }>('servers-catalog.json').tools,
  ...readFixture<{ tools: Tool[] }>('third-catalog.json').tools,
];
const realBox = new Toolbox(new Map(Array.from({ length: 13 }, (_, i) => [`v${i}`, realTools] as [string, Tool[]])), true);
const realService = new SearchService(() => realBox);
let t0 = performance.now();
realService.warm();
const realIndexMs = performance.now() - t0;
const realQueries = [...readFixture<GoldQuery[]>('search-servers.json'), ...readFixture<GoldQuery[]>('search-third.json')].map(
  (g) => g.query,
);
for (let i = 0; i < 3; i++) for (const q of realQueries) realService.search(q, undefined, () => false);
// Wall time, and this process's CPU time: on a shared machine the wall time's tail is mostly other
// processes' time slices, the CPU time is what a query costs.
const realTimes: number[] = [];
const realCpu: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const q of realQueries) {
    const c0 = process.cpuUsage();
    t0 = performance.now();
    realService.search(q, undefined, () => false);
    realTimes.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    realCpu.push((c.user + c.system) / 1000);
  }
}
const real = summarize(realTimes);
const realC = summarize(realCpu);
console.log(
  `\nreal descriptions: ${realBox.size} tools, index ${fmt(realIndexMs)} ms, query wall p50 ${fmt(real.p50)} ms, p99 ${fmt(real.p99)} ms; CPU p50 ${fmt(realC.p50)} ms, p99 ${fmt(realC.p99)} ms`,
);
results.realCatalog = {
  tools: realBox.size,
  indexMs: realIndexMs,
  p50Ms: real.p50,
  p99Ms: real.p99,
  cpuP50Ms: realC.p50,
  cpuP99Ms: realC.p99,
};

// search_tools as the proxy answers it on 5,000 tools: each query new to the model (ToolVectors keeps
// recent query vectors, so a repeat would cost nothing), embedded, ranked by both engines, fused, replied.
const hybridBox = new Toolbox(new Map([['catalog', tools]]), false);
const toolVectors = new ToolVectors({ stateDir: join(tmpdir(), 'mws-bench-search-vectors'), log: silentLogger });
toolVectors.update([...hybridBox.all()]);
t0 = performance.now();
toolVectors.activate();
await toolVectors.idle();
if (!toolVectors.ready()) throw new Error(`the search model did not load: ${toolVectors.status().warning}`);
const vectorsMs = performance.now() - t0;
const hybridService = new SearchService(() => hybridBox, {}, 'hybrid', undefined, toolVectors);
hybridService.warm();
let fresh = 0;
const nextQuery = () => `${queries[fresh % queries.length]!} ${fresh++ < queries.length ? '' : `(${fresh})`}`.trim();
for (let i = 0; i < 60; i++) await hybridService.searchAsync(nextQuery(), undefined, () => false);
const hybridTimes: number[] = [];
const hybridCpu: number[] = [];
for (let i = 0; i < 400; i++) {
  const q = nextQuery();
  const c0 = process.cpuUsage();
  t0 = performance.now();
  await hybridService.searchAsync(q, undefined, () => false);
  hybridTimes.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  hybridCpu.push((c.user + c.system) / 1000);
}
await toolVectors.stop();
const hy = summarize(hybridTimes);
const hyC = summarize(hybridCpu);
console.log(
  `hybrid search_tools: ${hybridBox.size} tools (vectors ready in ${fmt(vectorsMs)} ms), ${hybridTimes.length} new queries, wall p50 ${fmt(hy.p50)} ms, p99 ${fmt(hy.p99)} ms; CPU p50 ${fmt(hyC.p50)} ms, p99 ${fmt(hyC.p99)} ms`,
);
results.hybrid = { tools: hybridBox.size, vectorsMs, p50Ms: hy.p50, p99Ms: hy.p99, cpuP50Ms: hyC.p50, cpuP99Ms: hyC.p99 };

const b = results.bm25f as { indexMs: number; p50Ms: number; p99Ms: number; maxReplyBytes: number };
const checks = [
  ['query p50 < 1 ms', b.p50Ms < 1],
  ['query p99 < 5 ms', b.p99Ms < 5],
  ['index build < 150 ms', b.indexMs < 150],
  [`no reply above ${SEARCH_REPLY_MAX_BYTES} B`, b.maxReplyBytes <= SEARCH_REPLY_MAX_BYTES],
  [`query p99 < 5 ms on ${realBox.size} tools with real descriptions (wall)`, real.p99 < 5],
  [`query p99 < 5 ms on ${realBox.size} tools with real descriptions (CPU)`, realC.p99 < 5],
  ['any input < 50 ms (median) on the demo toolbox', worstDemo < 50],
  [`any input < 100 ms (median) on ${tools.length} tools`, worstBig < 100],
  [`hybrid search_tools p99 ≤ 30 ms on ${hybridBox.size} tools, query embedding included (wall)`, hy.p99 <= 30],
  [`hybrid search_tools p99 ≤ 30 ms on ${hybridBox.size} tools, query embedding included (CPU)`, hyC.p99 <= 30],
] as const;
console.log('');
for (const [label, ok] of checks) console.log(`${ok ? 'MET   ' : 'MISSED'} ${label}`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'search.json'),
  JSON.stringify({ at: new Date().toISOString(), tools: tools.length, results }, null, 2),
);
