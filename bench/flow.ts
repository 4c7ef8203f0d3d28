// `bench/flow`: how changes flow through mws at 5,000 tools × 100 agents, without the rest of
// bench/scale: list_changed from the upstream to 100 clients (half 2025, half 2026), and the longest a
// call waits while the periodic re-list of the whole toolbox runs.
//   BENCH_FLOW_TOOLS=5000      toolbox size
//   BENCH_FLOW_CHANGES=5       list_changed rounds (one tool renamed upstream each)
//   BENCH_FLOW_PROFILE=dir     `mws serve` runs with --cpu-prof into dir
// The upstream (bench/fixtures/manyTools.mjs) answers SIGUSR2 by changing a tool and notifying at once.
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT, deadPort } from '../test/helpers/processes.js';
import { summarize } from './stats.js';
import { until } from './until.js';

const N = Number(process.env.BENCH_FLOW_TOOLS ?? 5000);
const CHANGES = Number(process.env.BENCH_FLOW_CHANGES ?? 5);
const PROFILE = process.env.BENCH_FLOW_PROFILE;
const AGENTS = 100;
/** Short, so the bench sees several periodic re-lists in a few seconds. */
const TTL_MS = 1500;
const CLI = join(ROOT, 'bin', 'mws.js');
const MANY = join(ROOT, 'bench', 'fixtures', 'manyTools.mjs');
const { makeTool } = (await import(MANY)) as { makeTool: (i: number) => { name: string } };

const ms = (n: number) => `${n < 10 ? n.toFixed(2) : Math.round(n)} ms`;
const ownSignalFetch: typeof fetch = (input, init) => {
  const { signal: _shared, ...rest } = init ?? {};
  return fetch(input, rest);
};
const setSize = (i: number) => Math.min(N, 20 + Math.round((i * 480) / (AGENTS - 1)));

if (!existsSync(join(ROOT, 'out', 'main', 'mws.cjs'))) throw new Error('out/main/mws.cjs is missing: run npm run build first.');
const stateDir = mkdtempSync(join(tmpdir(), 'mws-flow-'));
const port = await deadPort();
const names = Array.from({ length: N }, (_, i) => makeTool(i).name);
const agents = Array.from({ length: AGENTS }, (_, i) => ({ id: `a${i}`, cap: 500, approvals: 'allow', pins: names.slice(0, setSize(i)) }));
const cfg = join(stateDir, 'config.json');
writeFileSync(
  cfg,
  JSON.stringify({
    upstream: { command: process.execPath, args: [MANY, String(N)] },
    stateDir,
    listen: { port },
    agents,
    timeouts: { listMs: 120_000, catalogTtlMs: TTL_MS },
  }),
);
const mws: ChildProcess = spawn(
  process.execPath,
  [...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : []), CLI, 'serve', '--config', cfg],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let out = '';
mws.stdout!.on('data', (d) => (out += d));
mws.stderr!.on('data', (d) => (out += d));
const url = await until(
  () => {
    if (mws.exitCode !== null) throw new Error(`mws serve exited: ${out}`);
    return /listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1];
  },
  60_000,
  'mws serve listening',
);

const connect = async (agent: string, era: 'auto' | 'legacy', onChanged?: () => void) => {
  const c = new Client(
    { name: `bench-${agent}`, version: '1' },
    {
      versionNegotiation: { mode: era },
      ...(onChanged ? { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => onChanged() } } } : {}),
    },
  );
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/${agent}`), { fetch: ownSignalFetch }));
  return c;
};
const caller = await connect('a0', 'auto');
await until(async () => ((await caller.listTools()).tools.length >= setSize(0) ? true : undefined), 120_000, 'the first list');

// 1. Calls while the periodic re-list runs (every TTL_MS, triggered by a tools/list).
const lat: number[] = [];
const stopAt = performance.now() + 8000;
let k = 0;
while (performance.now() < stopAt) {
  if (k % 50 === 0) await caller.listTools(); // a list after the TTL starts a background re-list
  const s = performance.now();
  await caller.callTool({ name: names[k % N]!, arguments: { id: `x${k}` } });
  lat.push(performance.now() - s);
  k++;
}
const cs = summarize(lat);
const sorted = [...lat].sort((a, b) => b - a);

// 2. list_changed to 100 clients.
let sentAt = 0;
let heard: number[] = [];
const listeners: Client[] = [];
for (let i = 0; i < AGENTS; i++)
  listeners.push(await connect(`a${i}`, i % 2 ? 'legacy' : 'auto', () => heard.push(performance.now() - sentAt)));
await new Promise((r) => setTimeout(r, 1000));
const upstreamPid = Number(readFileSync(`/proc/${mws.pid}/task/${mws.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
const rounds: Array<{ p50: number; last: number; n: number }> = [];
for (let r = 0; r < CHANGES; r++) {
  heard = [];
  sentAt = performance.now();
  process.kill(upstreamPid, 'SIGUSR2');
  await until(() => (heard.length >= AGENTS ? true : undefined), 30_000, `list_changed at ${AGENTS} clients (heard ${heard.length})`).catch(
    (e: Error) => console.error(e.message),
  );
  await new Promise((res) => setTimeout(res, 300));
  rounds.push({ p50: summarize(heard).p50, last: Math.max(...heard), n: heard.length });
}
await Promise.all([...listeners, caller].map((c) => c.close().catch(() => {})));
mws.kill('SIGTERM');
await new Promise((r) => mws.once('exit', r));

console.log(
  `\nbench/flow: ${N} tools × ${AGENTS} agents, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
console.log(
  `  calls during periodic re-lists (every ${TTL_MS} ms, ${lat.length} calls): p50 ${ms(cs.p50)} · p99 ${ms(cs.p99)} · slowest ${sorted.slice(0, 5).map(ms).join(', ')}`,
);
for (const r of rounds) console.log(`  list_changed → ${r.n} of ${AGENTS} clients: p50 ${ms(r.p50)} · last ${ms(r.last)}`);
const lasts = rounds.map((r) => r.last).sort((a, b) => a - b);
console.log(`  list_changed last-client, median over ${rounds.length} changes: ${ms(lasts[Math.floor(lasts.length / 2)]!)}`);
process.exit(0);
