// `bench/replicas`: one toolbox served by 1 replica on files, 1 on PostgreSQL, and 2–3 on one
// PostgreSQL, side by side in one run. A stdio upstream with a generated toolbox (bench/fixtures/
// manyTools.mjs), N agents each calling through its own 2026-07-28 client (no session), the requests
// dealt round-robin over the replicas as a balancer does. Prints, per set-up: calls/s, calls per
// CPU-second of the replicas, and the round-trip of one caller alone (p50/p99: what the set-up adds
// over an upstream that answers at once); then list_changed fan-out across replicas, and the time the
// callers take to carry on after one replica is killed -9. The database is the tests' embedded one.
//   BENCH_REPLICAS_TOOLS=5000  BENCH_REPLICAS_AGENTS=100  BENCH_REPLICAS_SECONDS=8  BENCH_REPLICAS_MAX=3
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { ROOT } from '../test/helpers/processes.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { summarize } from './stats.js';
import { until } from './until.js';

const TOOLS = Number(process.env.BENCH_REPLICAS_TOOLS ?? 5000);
const AGENTS = Number(process.env.BENCH_REPLICAS_AGENTS ?? 100);
const SECONDS = Number(process.env.BENCH_REPLICAS_SECONDS ?? 8);
const MAX = Math.max(2, Number(process.env.BENCH_REPLICAS_MAX ?? 3));
const SOLO_CALLS = 400;
const STICKY = process.env.BENCH_REPLICAS_STICKY === '1';
const IDLE_MS = 3000;
const FANOUT_ROUNDS = 20;
const CLI = join(ROOT, 'bin', 'mws.js');
const MANY = join(ROOT, 'bench', 'fixtures', 'manyTools.mjs');
const { makeTool } = (await import(MANY)) as { makeTool: (i: number) => { name: string } };
const KEY = Buffer.alloc(32, 7).toString('base64');
const TICK = 100; // clock ticks per second in /proc/<pid>/stat

type Replica = { proc: ChildProcess; base: string; token: string };

function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL process on the machine (the tests' embedded server: its postmaster and backends). */
function databaseCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
    } catch {
      continue;
    }
    total += cpuSeconds(Number(pid));
  }
  return total;
}

async function startReplica(cfg: Record<string, unknown>): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), 'mws-bench-rep-'));
  const stateDir = join(dir, 'state');
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ listen: { port: 0 }, stateDir, ...cfg }));
  // BENCH_REPLICAS_PROF=DIR: each replica writes a CPU profile there when it stops.
  const prof = process.env.BENCH_REPLICAS_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_REPLICAS_PROF}`] : [];
  const proc = spawn(process.execPath, [...prof, CLI, 'serve', '--config', path], {
    env: { ...process.env, MWS_STATE_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const base = await until(() => /listening on (http:\/\/\S+)\/mcp/.exec(out)?.[1], 60_000, 'a replica to listen');
  return { proc, base, token: readFileSync(join(stateDir, 'control-token'), 'utf8').trim() };
}

async function control(r: Replica, method: string, args: unknown): Promise<void> {
  const res = await fetch(`${r.base}/control/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${r.token}` },
    body: JSON.stringify(args),
  });
  if (!res.ok) throw new Error(`${method} on ${r.base}: ${res.status} ${await res.text()}`);
}

/** A fetch that deals requests round-robin over the replicas and passes over one that refuses (as nginx's proxy_next_upstream error). */
function balancer(replicas: Replica[]): { fetch: typeof fetch; down: Set<string> } {
  const origins = replicas.map((r) => new URL(r.base).origin);
  const down = new Set<string>();
  let next = 0;
  const f = (async (input: string | URL | Request, init?: RequestInit) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    let last: unknown;
    // BENCH_REPLICAS_STICKY=1: each agent's requests go to one replica (by its number), as a balancer with affinity would.
    const agent = STICKY ? Number(/\/mcp\/a(\d+)/.exec(u.pathname)?.[1] ?? 0) : undefined;
    for (let tries = 0; tries < origins.length; tries++) {
      const o = origins[(agent !== undefined ? agent + tries : next++) % origins.length]!;
      if (down.has(o)) continue;
      try {
        return await fetch(`${o}${u.pathname}${u.search}`, init);
      } catch (err) {
        last = err;
        if ((err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') down.add(o);
        else throw err; // handed over already: a POST is not sent twice
      }
    }
    throw last ?? new Error('no replica left');
  }) as typeof fetch;
  return { fetch: f, down };
}

async function client(url: string, f: typeof fetch, name: string, onChanged?: () => void): Promise<Client> {
  const c = new Client({ name, version: '1' }, {
    versionNegotiation: { mode: 'auto' },
    ...(onChanged ? { listChanged: { tools: { debounceMs: 0, onChanged: () => onChanged() } } } : {}),
  } as never);
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: f }));
  return c;
}

const toolName = (i: number) => `many__${makeTool((i * 10) % TOOLS).name}`; // a `get_…` tool: read-only, no approval
const call = (c: Client, i: number) => c.callTool({ name: 'call_tool', arguments: { name: toolName(i), arguments: { id: 'x' } } });

type SetUp = { label: string; replicas: Replica[] };
type Row = {
  label: string;
  cps: number;
  perCpu: number;
  cpu: number;
  idle: number;
  clientCpu: number;
  dbCpu: number;
  p50: number;
  p99: number;
  errors: number;
};

async function measure(s: SetUp): Promise<Row> {
  const lb = balancer(s.replicas);
  // One caller alone: the round trip the set-up adds.
  const solo = await client(`${s.replicas[0]!.base}/mcp/a1`, lb.fetch, 'solo');
  for (let i = 0; i < 50; i++) await call(solo, i);
  const lat: number[] = [];
  for (let i = 0; i < SOLO_CALLS; i++) {
    const t0 = performance.now();
    await call(solo, i);
    lat.push(performance.now() - t0);
  }
  await solo.close();
  // N agents at once, each in turn.
  const clients = await Promise.all(
    Array.from({ length: AGENTS }, (_, i) => client(`${s.replicas[0]!.base}/mcp/a${i + 1}`, lb.fetch, `agent-${i + 1}`)),
  );
  // What the replicas spend with no calls (background loops), over the same machine a moment before.
  const idle0 = s.replicas.reduce((a, r) => a + cpuSeconds(r.proc.pid!), 0);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idle = (s.replicas.reduce((a, r) => a + cpuSeconds(r.proc.pid!), 0) - idle0) / (IDLE_MS / 1000);
  const cpu0 = s.replicas.reduce((a, r) => a + cpuSeconds(r.proc.pid!), 0);
  const own0 = process.cpuUsage();
  const db0 = databaseCpuSeconds();
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  let errors = 0;
  await Promise.all(
    clients.map(async (c, k) => {
      for (let i = k; performance.now() < end; i++) {
        try {
          const r = await call(c, i);
          if (r.isError) errors++;
          else done++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const cpu = s.replicas.reduce((a, r) => a + cpuSeconds(r.proc.pid!), 0) - cpu0;
  const own = process.cpuUsage(own0);
  const dbCpu = (databaseCpuSeconds() - db0) / SECONDS;
  await Promise.all(clients.map((c) => c.close()));
  const st = summarize(lat);
  return {
    label: s.label,
    cps: done / SECONDS,
    perCpu: done / Math.max(cpu, 0.01),
    cpu: cpu / SECONDS,
    idle,
    clientCpu: (own.user + own.system) / 1e6 / SECONDS,
    dbCpu,
    p50: st.p50,
    p99: st.p99,
    errors,
  };
}

async function fanout(s: SetUp): Promise<{ p50: number; p99: number; n: number }> {
  // Three listeners on agent a2 per replica; a promotion made on the first replica, timed until all heard it.
  let heard = 0;
  const listeners: Client[] = [];
  for (const r of s.replicas)
    for (let k = 0; k < 3; k++) listeners.push(await client(`${r.base}/mcp/a2`, fetch, `listener-${k}`, () => heard++));
  const times: number[] = [];
  for (let i = 0; i < FANOUT_ROUNDS; i++) {
    const before = heard;
    const t0 = performance.now();
    await control(s.replicas[0]!, i % 2 ? 'demote' : 'promote', { agent: 'a2', tool: toolName(1) });
    await until(() => (heard - before >= listeners.length ? true : undefined), 10_000, 'every listener to hear list_changed');
    times.push(performance.now() - t0);
  }
  await Promise.all(listeners.map((c) => c.close()));
  const st = summarize(times);
  return { p50: st.p50, p99: st.p99, n: listeners.length };
}

async function carryOn(s: SetUp): Promise<{ ms: number; failed: number; ok: number }> {
  const lb = balancer(s.replicas);
  const callers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => client(`${s.replicas[0]!.base}/mcp/a${(i % AGENTS) + 1}`, lb.fetch, `k-${i}`)),
  );
  let killedAt = Infinity;
  const firstAfter: number[] = [];
  let failed = 0;
  let ok = 0;
  const end = performance.now() + 4000;
  setTimeout(() => {
    killedAt = performance.now();
    s.replicas[s.replicas.length - 1]!.proc.kill('SIGKILL');
  }, 1500);
  await Promise.all(
    callers.map(async (c, k) => {
      let seen = false;
      for (let i = k; performance.now() < end; i++) {
        try {
          const r = await call(c, i);
          if (r.isError) failed++;
          else {
            ok++;
            if (!seen && performance.now() > killedAt) {
              seen = true;
              firstAfter.push(performance.now() - killedAt);
            }
          }
        } catch {
          failed++;
        }
      }
    }),
  );
  await Promise.all(callers.map((c) => c.close().catch(() => {})));
  return { ms: Math.max(...firstAfter), failed, ok };
}

const db = await startPostgres();
const upstreams = { many: { command: process.execPath, args: [MANY, String(TOOLS)] } };
const agents = Array.from({ length: AGENTS }, (_, i) => ({ id: `a${i + 1}` }));
const started: Replica[] = [];
const isReady = async (r: Replica): Promise<true | undefined> => {
  const body = (await (await fetch(`${r.base}/readyz`)).json()) as { upstreams?: { up?: number } };
  return body.upstreams?.up === 1 ? true : undefined;
};
const ready = async (rs: Replica[]) => {
  for (const r of rs) await until(() => isReady(r), 60_000, `${r.base} to be ready`);
};
const rows: Row[] = [];
const writes: string[] = [];
/** How often the working sets were written during the run (each write is a NOTIFY the other replicas reload on). */
async function agentWrites(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ w: string; n: string }>(
      'SELECT (SELECT coalesce(sum(version), 0) FROM mws_agent_state)::text AS w, (SELECT count(*) FROM mws_calls)::text AS n',
    );
    return `${r.rows[0]!.w} working-set writes, ${r.rows[0]!.n} call-log rows`;
  } finally {
    await c.end();
  }
}
let fan: Awaited<ReturnType<typeof fanout>> | undefined;
let carry: Awaited<ReturnType<typeof carryOn>> | undefined;
try {
  const stop = async (rs: Replica[]) => {
    for (const r of rs) {
      r.proc.kill('SIGTERM');
      await new Promise((resolve) =>
        r.proc.exitCode !== null || r.proc.signalCode !== null ? resolve(null) : r.proc.once('exit', resolve),
      );
    }
  };
  const files = [await startReplica({ upstreams, agents })];
  started.push(...files);
  await ready(files);
  rows.push(await measure({ label: '1 replica, files', replicas: files }));
  await stop(files);

  for (const n of [1, ...Array.from({ length: MAX - 1 }, (_, i) => i + 2)]) {
    const url = await db.freshDatabase(`bench_${n}`);
    const first = await startReplica({ upstreams, agents, store: { postgres: { url } } });
    const rest = await Promise.all(Array.from({ length: n - 1 }, () => startReplica({ store: { postgres: { url } } })));
    const rs = [first, ...rest];
    started.push(...rs);
    await ready(rs);
    const s = { label: `${n} replica${n > 1 ? 's' : ''}, PostgreSQL`, replicas: rs };
    rows.push(await measure(s));
    writes.push(`${s.label}: ${await agentWrites(url)}`);
    if (n === MAX) {
      fan = await fanout(s);
      carry = await carryOn(s);
    }
    await stop(rs);
  }
} finally {
  started.forEach((r) => r.proc.kill('SIGKILL'));
  await db.stop();
}

const f = (n: number) => (n < 10 ? n.toFixed(2) : String(Math.round(n)));
console.log(
  `\nbench/replicas: ${TOOLS} tools, ${AGENTS} agents, ${SECONDS} s of calls per set-up (all on this machine: clients, replicas, PostgreSQL)\n`,
);
console.log(
  "| set-up | calls/s | calls per replica CPU-second | replicas' cores busy | bench client's cores busy | PostgreSQL's cores busy | one caller p50 | p99 | errors |",
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.label} | ${f(r.cps)} | ${f(r.perCpu)} | ${r.cpu.toFixed(2)} (${r.idle.toFixed(2)}) | ${r.clientCpu.toFixed(2)} | ${r.dbCpu.toFixed(2)} | ${f(r.p50)} ms | ${f(r.p99)} ms | ${r.errors} |`,
  );
for (const w of writes) console.log(w);
const one = rows.find((r) => r.label.startsWith('1 replica, P'));
const filesRow = rows[0]!;
for (const r of rows.slice(2))
  console.log(`${r.label}: ${(r.cps / one!.cps).toFixed(2)} × the calls/s of one replica on PostgreSQL (target for 2: ≥ 1.7)`);
console.log(`PostgreSQL store adds ${(one!.p50 - filesRow.p50).toFixed(2)} ms at p50 over files (target ≤ 1 ms)`);
if (fan)
  console.log(
    `list_changed fan-out to ${fan.n} clients on ${MAX} replicas: p50 ${f(fan.p50)} ms, p99 ${f(fan.p99)} ms over ${FANOUT_ROUNDS} changes (target p99 < 1000 ms)`,
  );
if (carry)
  console.log(
    `carry-on after kill -9 of one of ${MAX} replicas under 20 callers: every caller answered again within ${f(carry.ms)} ms; ${carry.failed} call(s) failed, ${carry.ok} answered (target < 2000 ms)`,
  );
