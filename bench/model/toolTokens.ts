// The tool-text token limit against quality: hybrid and dense-alone top-1 / top-3 on the tuning sets
// with tools embedded at 128 (the model's limit), 96 and 64 tokens. Vectors are kept per limit in
// .test-cache/ (128 shares the CI eval test's).   node --import tsx bench/model/toolTokens.ts [--sets a,b]
import { join } from 'node:path';
import { Toolbox } from '../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../src-main/core/search/service.js';
import { evaluate } from '../../src-main/core/search/eval/evaluate.js';
import { ToolVectors } from '../../src-main/core/search/embed/toolVectors.js';
import { silentLogger } from '../../src-main/core/log.js';
import { ROOT } from '../../test/helpers/processes.js';
import { loadSet } from '../evalSets.js';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const sets = (arg('--sets') ?? 'gold,second,learning').split(',') as Array<'gold' | 'second' | 'learning' | 'third'>;
const pct = (x: number) => (x * 100).toFixed(1);
for (const name of sets) {
  const { tools, gold } = loadSet(name);
  const box = new Toolbox(new Map([['catalog', tools]]), false);
  const row: string[] = [];
  for (const limit of [128, 96, 64]) {
    const dir = join(ROOT, '.test-cache', limit === 128 ? 'vectors' : `vectors-tok${limit}`, name);
    const tv = new ToolVectors({ stateDir: dir, log: silentLogger, toolTokens: limit });
    tv.update([...box.all()]);
    tv.activate();
    await tv.idle();
    const qv = new Map<string, Float32Array>();
    for (const g of gold) qv.set(g.query, (await tv.embedQuery(g.query))!);
    for (const engine of ['hybrid', 'dense'] as const) {
      const s = new SearchService(() => box, {}, engine, undefined, tv);
      const r = evaluate(() => (q, k) => s.resolve(q, k, 'eval', qv.get(q)).entries.map((e) => e.name), gold);
      row.push(`${limit} ${engine} ${pct(r.top1)}/${pct(r.top3)}`);
    }
    await tv.stop();
  }
  console.log(`${name}: ${row.join('  ')}`);
}
