// The shipped sentence models side by side on every evaluation set: `mws eval --engine dense|hybrid`
// run once per model (MWS_MODEL_DIR names its folder), top-1 / top-3 and the time each run took.
//   node --import tsx bench/modelCompare.ts [--only SET,SET] [--engines dense,hybrid] [--models A,B] [--dir NAME=FOLDER]
// Sets (bench/evalSets.ts): gold, second, learning and verb-noun were tuned on; third, MetaTool and the
// long-request held-out twin never were.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVAL_SETS, loadSet } from './evalSets.js';
import { SEARCH_MODELS } from '../src-main/core/config/configSchema.js';

const arg = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const only = arg('--only')?.split(',') ?? ['gold', 'second', 'third', 'metatool', 'verbnoun', 'long', 'long-heldout'];
const engines = arg('--engines')?.split(',') ?? ['dense', 'hybrid'];
/** --dir NAME=FOLDER: a model folder of one's own beside the shipped ones (a variant being tried). */
const extra = arg('--dir')?.split('=');
/** --models A,B: only these of the shipped ones. */
const shipped = arg('--models')?.split(',') ?? [...SEARCH_MODELS];
const MODELS: Array<[string, string]> = [
  ...shipped.map((m): [string, string] => [m, join(import.meta.dirname, '..', 'resources', 'model', m)]),
  ...(extra ? [[extra[0]!, extra[1]!] as [string, string]] : []),
];
// MWS_COMPARE_DIR keeps the tools' vectors between runs (a second run reads them back).
const dir = process.env.MWS_COMPARE_DIR ?? mkdtempSync(join(tmpdir(), 'mws-models-'));
const cli = join(import.meta.dirname, '..', 'src-main', 'cli', 'run.ts');

console.log(`| set | engine | ${MODELS.map(([m]) => m).join(' | ')} |`);
console.log(`| --- | --- | ${MODELS.map(() => '---').join(' | ')} |`);
for (const name of only as Array<keyof typeof EVAL_SETS>) {
  const { tools, gold } = loadSet(name);
  const catalog = join(dir, `${name}-catalog.json`);
  const queries = join(dir, `${name}-gold.json`);
  writeFileSync(catalog, JSON.stringify({ tools }));
  writeFileSync(queries, JSON.stringify(gold));
  for (const engine of engines) {
    const cells = MODELS.map(([model, folder]) => {
      const started = Date.now();
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', cli, 'eval', '--catalog', catalog, '--gold', queries, '--engine', engine, '--json'],
        {
          env: {
            ...process.env,
            MWS_MODEL_DIR: folder,
            // The tools' vectors are kept between the engines' runs, one folder per set and model.
            MWS_EVAL_VECTORS: join(dir, 'vectors', name, model),
          },
          maxBuffer: 1 << 28,
        },
      ).toString();
      const r = JSON.parse(out) as { top1: number; top3: number };
      return `${(r.top1 * 100).toFixed(1)} / ${(r.top3 * 100).toFixed(1)} (${Math.round((Date.now() - started) / 1000)} s)`;
    });
    console.log(`| ${name} (${gold.length} q, ${tools.length} tools) | ${engine} | ${cells.join(' | ')} |`);
  }
}
