// The sentence model's costs on this machine: RSS it adds, a query's embedding (p50/p99), tool texts per
// second in the background (ToolVectors, slices), and 5,000 tools' vectors from the cache.
//   node --expose-gc --import tsx bench/model/embed.ts [--tools N]   (default 400 embedded, extrapolated to 5,000)
// Wall times on a shared 2-core machine swing with its load: CPU time (process.cpuUsage) is printed beside.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { Toolbox } from '../../src-main/core/toolbox/toolbox.js';
import { silentLogger } from '../../src-main/core/log.js';
import { ToolVectors } from '../../src-main/core/search/embed/toolVectors.js';
import { VECTOR_CACHE_FILE, writeVectorCache } from '../../src-main/core/search/embed/vectorCache.js';
import { loadEmbedder } from '../../src-main/core/search/embed/loadEmbedder.js';
import { generateCatalog } from '../genCatalog.js';
import { tempDir } from '../../test/helpers/app.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rss = () => (gc(), process.memoryUsage().rss / 1e6);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};
const n = Number(process.argv[process.argv.indexOf('--tools') + 1]) || 400;
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

const catalog = generateCatalog(5000);
const entries = [...new Toolbox(new Map([['bench', catalog.tools]]), false).all()];
const stateDir = tempDir('mws-bench-model-');
const before = rss();
const vectors = new ToolVectors({ stateDir, log: silentLogger, entries: () => entries.slice(0, n) });
let c = process.cpuUsage();
let t = performance.now();
vectors.activate();
await vectors.idle();
const wall = performance.now() - t;
const cpu = cpuMs(c);
if (vectors.status().state !== 'ready') throw new Error(`the model did not load: ${vectors.status().warning}`);
console.log(
  `embedded ${n} tools in ${(wall / 1000).toFixed(1)} s wall, ${(cpu / 1000).toFixed(1)} s CPU (model load included) → 5,000 tools ≈ ${((wall / n) * 5).toFixed(0)} s wall, ${((cpu / n) * 5).toFixed(0)} s CPU`,
);
console.log(`RSS added by the model and ${n} vectors: ${(rss() - before).toFixed(0)} MB`);

const lat: number[] = [];
const lcpu: number[] = [];
const queries = catalog.gold
  .map((g) => g.query)
  .concat(['send an email to my colleague about the invoice', 'Tell me about the philosophy subject.']);
for (let i = 0; i < 300; i++) {
  c = process.cpuUsage();
  t = performance.now();
  // Each query new (ToolVectors keeps the latest query vectors: a repeat would cost nothing).
  await vectors.embedQuery(i < queries.length ? queries[i]! : `${queries[i % queries.length]!} (${i})`);
  lat.push(performance.now() - t);
  lcpu.push(cpuMs(c));
}
const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))]!.toFixed(1);
console.log(
  `query embedding: p50 ${pct(lat, 0.5)} ms, p99 ${pct(lat, 0.99)} ms wall; CPU p50 ${pct(lcpu, 0.5)} ms, p99 ${pct(lcpu, 0.99)} ms`,
);
console.log(`RSS added after ${lat.length} queries: ${(rss() - before).toFixed(0)} MB`);

// 5,000 tools from the cache: the file ToolVectors would have written, read by a new ToolVectors.
const e = await loadEmbedder();
if ('error' in e) throw new Error(e.error.message);
const fake = new Map<string, Float32Array>();
const one = (await e.embed(['x']))[0]!;
// Keys as ToolVectors computes them: embed nothing, only learn the keys through a twin that returns one vector.
const keysOnly = new ToolVectors({
  stateDir: undefined,
  log: silentLogger,
  load: async () => ({ model: e.model, dim: e.dim, embed: async (ts: string[]) => ts.map(() => one), close: async () => {} }),
  entries: () => entries,
});
keysOnly.activate();
await keysOnly.idle();
for (const x of entries) fake.set(keyOf(keysOnly, x), one);
await writeVectorCache(join(stateDir, VECTOR_CACHE_FILE), e.model, e.dim, fake);
const cached = new ToolVectors({ stateDir, log: silentLogger, load: async () => e, entries: () => entries });
t = performance.now();
c = process.cpuUsage();
cached.activate();
await cached.idle();
console.log(
  `5,000 tools from the cache: ready in ${(performance.now() - t).toFixed(0)} ms wall, ${cpuMs(c).toFixed(0)} ms CPU (model already loaded), ${cached.status().embedded}/${cached.status().total} embedded, file ${(readFileSync(join(stateDir, VECTOR_CACHE_FILE)).length / 1e6).toFixed(1)} MB`,
);
await vectors.stop();
await e.close();

function keyOf(v: ToolVectors, entry: (typeof entries)[number]): string {
  return (v as unknown as { keyOf(e: typeof entry): { key: string } }).keyOf(entry).key;
}
