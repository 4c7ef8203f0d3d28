// `bench/changeCost`: the main-thread cost of one upstream change at 5,000 tools × 100 agents, in
// process (CPU time, so a busy machine bends it less than wall-clock figures): the re-list's comparison,
// the merged toolbox, every agent's listing, and the search index built in slices (longest slice).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { validateConfig } from '../src-main/core/config/validate.js';
import { createApp } from '../src-main/core/app.js';
import { systemClock } from '../src-main/core/clock.js';
import { MemoryLogger } from '../src-main/core/log.js';
import { TwinUpstream } from '../test/helpers/twins.js';

const N = Number(process.env.BENCH_CHANGE_TOOLS ?? 5000);
const AGENTS = 100;
const ROUNDS = Number(process.env.BENCH_CHANGE_ROUNDS ?? 5);
const { makeTool } = (await import(join(import.meta.dirname, 'fixtures', 'manyTools.mjs'))) as {
  makeTool: (i: number, g?: number) => Tool;
};
const tools = Array.from({ length: N }, (_, i) => makeTool(i));
const setSize = (i: number) => Math.min(N, 20 + Math.round((i * 480) / (AGENTS - 1)));
const stateDir = mkdtempSync(join(tmpdir(), 'mws-change-'));
const agents = Array.from({ length: AGENTS }, (_, i) => ({
  id: `a${i}`,
  cap: 500,
  approvals: 'allow',
  pins: tools.slice(0, setSize(i)).map((t) => t.name),
}));
const config = validateConfig({ stateDir, upstreams: { up: { url: 'http://127.0.0.1:1/mcp' } }, agents }, stateDir);
const twin = new TwinUpstream('up', tools);
const app = createApp({ config, clock: systemClock, log: new MemoryLogger(), connect: () => twin, lock: false });
await app.start({ listen: false, schedule: false });
for (const a of agents) app.router.listTools(a.id);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
// The longest the event loop was held (in CPU time) while the change was taken in, between setImmediate turns.
async function measure(change: () => Promise<void>): Promise<{ wallMs: number; cpuMs: number; longestMs: number; settledMs: number }> {
  // Held = CPU time between two turns (process.cpuUsage), so time the machine gave to others does not count.
  let longest = 0;
  let last = cpu();
  let on = true;
  const tick = () => {
    const now = cpu();
    longest = Math.max(longest, now - last);
    last = now;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  const c0 = cpu();
  const t0 = performance.now();
  await change();
  const wallMs = performance.now() - t0;
  const cpuMs = cpu() - c0;
  // Until the search index for the new toolbox is whole (it builds in slices after the change).
  const t1 = performance.now();
  app.search.search('create an invoice', 5, () => false);
  const settledMs = performance.now() - t1;
  on = false;
  return { wallMs, cpuMs, longestMs: longest, settledMs };
}

const fmt = (n: number) => n.toFixed(1);
// Periodic re-list, nothing changed.
for (let r = 0; r < ROUNDS; r++) {
  twin.tools = JSON.parse(JSON.stringify(tools)) as Tool[];
  const m = await measure(() => app.catalog.refresh());
  console.log(`re-list, unchanged:  wall ${fmt(m.wallMs)} ms · CPU ${fmt(m.cpuMs)} ms · longest hold ${fmt(m.longestMs)} ms`);
}
// One tool changed: toolbox, 100 listings, notifications, then the index in slices.
for (let r = 1; r <= ROUNDS; r++) {
  const next = JSON.parse(JSON.stringify(tools)) as Tool[];
  next[r] = makeTool(r, r);
  twin.tools = next;
  const m = await measure(async () => {
    await app.catalog.refresh();
    // The index builds in slices after the change; wait for it by turns, as calls would see it.
    for (
      let i = 0;
      i < 10_000 && (app.search as unknown as { prepared: WeakMap<object, unknown> }).prepared.get(app.catalog.toolbox()) === undefined;
      i++
    )
      await new Promise((res) => setImmediate(res));
    for (let i = 0; i < 2000; i++) await new Promise((res) => setImmediate(res));
  });
  console.log(
    `one tool changed:    wall ${fmt(m.wallMs)} ms · CPU ${fmt(m.cpuMs)} ms · longest hold ${fmt(m.longestMs)} ms · search after it ${fmt(m.settledMs)} ms`,
  );
}
await app.stop();
process.exit(0);
