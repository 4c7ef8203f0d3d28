// Profiles one usage cycle over a calls.jsonl backlog (bench/scale measures it; this shows where it goes).
//   node --cpu-prof --import tsx bench/usageProfile.ts [LINES]
import { join } from 'node:path';
import { setsHarness } from '../test/helpers/sets.js';
import { writeCallBacklog } from './callBacklog.js';

const lines = Number(process.argv[2] ?? 200_000);
const h = await setsHarness();
const path = join(h.stateDir, 'calls.jsonl');
const t = h.clock.now() - 86_400_000;
writeCallBacklog(path, lines, t);
const gaps: Array<[string, number]> = [];
let last = performance.now();
const t0 = performance.now();
const tick = setInterval(() => {
  const now = performance.now();
  if (now - last > 30) gaps.push([`${Math.round(last - t0)}`, Math.round(now - last)]);
  last = now;
}, 2);
await h.sets.cycle(h.clock.now());
clearInterval(tick);
console.log(`${lines} lines: ${Math.round(performance.now() - t0)} ms; stalls > 30 ms at [ms, length]: ${JSON.stringify(gaps)}`);
await h.close();
