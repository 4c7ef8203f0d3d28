// Dense alone (the sentence model, cosine over toolText) on the tuning sets, per model folder — how the
// shipped model was chosen. Not metatool: that set stays untouched for evaluation.
//   node --import tsx bench/model/denseEval.ts [modelDir …]   (default: the shipped model)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../src-main/core/toolbox/toolbox.js';
import { evaluate, type GoldQuery } from '../../src-main/core/search/eval/evaluate.js';
import { loadEmbedder } from '../../src-main/core/search/embed/loadEmbedder.js';
import { defaultModelDir } from '../../src-main/core/search/embed/modelFiles.js';
import { toolText } from '../../src-main/core/search/embed/toolText.js';
import { ROOT } from '../../test/helpers/processes.js';

const read = <T>(f: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures', f), 'utf8')) as T;
const SETS: Array<[string, string, string[]]> = [
  ['gold', 'catalog.json', ['search-gold.json']],
  ['holdouts 1–4', 'catalog.json', ['search-holdout.json', 'search-holdout2.json', 'search-holdout3.json', 'search-holdout4.json']],
  ['second (servers)', 'servers-catalog.json', ['search-servers.json']],
];

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

const dirs = process.argv.slice(2).length ? process.argv.slice(2) : [defaultModelDir()];
for (const dir of dirs) {
  const e = await loadEmbedder({ modelDir: dir });
  if ('error' in e) throw new Error(e.error.message);
  console.log(`${e.model}`);
  for (const [name, catalog, files] of SETS) {
    const box = new Toolbox(new Map([['catalog', read<{ tools: Tool[] }>(catalog).tools]]), false);
    const entries = [...box.all()];
    const gold = files.flatMap((f) => read<GoldQuery[]>(f));
    const t0 = performance.now();
    const tv = await e.embed(entries.map((x) => toolText(x)));
    const toolMs = (performance.now() - t0) / entries.length;
    const qv = new Map<string, Float32Array>();
    const qs = await e.embed(gold.map((g) => g.query));
    gold.forEach((g, i) => qv.set(g.query, qs[i]!));
    const r = evaluate(
      () => (q, k) => {
        const v = qv.get(q)!;
        return entries
          .map((x, i) => ({ n: x.name, s: dot(v, tv[i]!) }))
          .sort((a, b) => b.s - a.s)
          .slice(0, k)
          .map((h) => h.n);
      },
      gold,
    );
    console.log(
      `  ${`${name} (${gold.length} q, ${entries.length} tools)`.padEnd(36)} top-1 ${(r.top1 * 100).toFixed(1)} %  top-3 ${(r.top3 * 100).toFixed(1)} %  MRR ${r.mrr.toFixed(3)}  (${toolMs.toFixed(1)} ms/tool wall)`,
    );
  }
  await e.close();
}
