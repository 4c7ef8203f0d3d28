// onnxruntime session options and the tool-text token limit against RSS and CPU: each variant in a
// fresh process (RSS is per process), loading the shipped model, embedding N generated tool texts (as
// ToolVectors does, one per run) and 200 queries.
//   node --expose-gc --import tsx bench/model/sessionOptions.ts [--tools N]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { Toolbox } from '../../src-main/core/toolbox/toolbox.js';
import { loadEmbedder } from '../../src-main/core/search/embed/loadEmbedder.js';
import { toolText } from '../../src-main/core/search/embed/toolText.js';
import { generateCatalog } from '../genCatalog.js';

// Shipped: memory patterns and the CPU arena off, prepacking off (onnxruntime's key is session.disable_prepacking).
const VARIANTS: Record<string, Record<string, unknown>> = {
  shipped: {},
  'prepacking on': { extra: { session: { disable_prepacking: '0' } } },
  'memPattern on': { enableMemPattern: true },
  'arena on': { enableCpuMemArena: true },
  sequential: { executionMode: 'sequential' },
  'optimization basic': { graphOptimizationLevel: 'basic' },
};
const n = Number(process.argv[process.argv.indexOf('--tools') + 1]) || 200;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rss = () => (gc(), process.memoryUsage().rss / 1e6);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

if (process.argv.includes('--child')) {
  const name = process.argv[process.argv.indexOf('--child') + 1]!;
  const maxChars = Number(process.argv[process.argv.indexOf('--chars') + 1]) || Infinity;
  const catalog = generateCatalog(5000);
  const texts = [...new Toolbox(new Map([['bench', catalog.tools]]), false).all()].slice(0, n).map((e) => toolText(e).slice(0, maxChars));
  const queries = catalog.gold.map((g) => g.query).slice(0, 200);
  const before = rss();
  const c0 = cpu();
  const e = await loadEmbedder({ session: VARIANTS[name]! });
  if ('error' in e) throw new Error(e.error.message);
  const loaded = rss() - before;
  const c1 = cpu();
  for (const t of texts) await e.embed([t]);
  const c2 = cpu();
  for (const q of queries) await e.embed([q]);
  const c3 = cpu();
  console.log(
    JSON.stringify({
      name,
      loadMs: c1 - c0,
      toolMs: (c2 - c1) / texts.length,
      queryMs: (c3 - c2) / queries.length,
      rssLoaded: loaded,
      rssAfter: rss() - before,
      peak: process.resourceUsage().maxRSS / 1e3,
    }),
  );
  await e.close();
} else {
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${n} tool texts, 200 queries, one process per variant`,
  );
  console.log('variant                       load CPU  per tool  per query  RSS loaded  RSS after');
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(',') : Object.keys(VARIANTS);
  for (const name of only) {
    const r = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--child',
        name,
        '--tools',
        String(n),
        ...(process.argv.includes('--chars') ? ['--chars', process.argv[process.argv.indexOf('--chars') + 1]!] : []),
      ],
      { encoding: 'utf8' },
    );
    const line = r.stdout.trim().split('\n').pop() ?? '';
    try {
      const x = JSON.parse(line) as { loadMs: number; toolMs: number; queryMs: number; rssLoaded: number; rssAfter: number };
      console.log(
        `${name.padEnd(29)} ${x.loadMs.toFixed(0).padStart(5)} ms  ${x.toolMs.toFixed(1).padStart(5)} ms  ${x.queryMs.toFixed(1).padStart(6)} ms  ${x.rssLoaded.toFixed(0).padStart(6)} MB  ${x.rssAfter.toFixed(0).padStart(6)} MB`,
      );
    } catch {
      console.log(`${name}: failed: ${r.stderr.slice(-400)}`);
    }
  }
}
