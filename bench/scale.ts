// `bench/scale`: mws at toolbox sizes people have. A stdio upstream (bench/fixtures/manyTools.mjs)
// lists N realistic tools (in one reply, or paged); 100 agents list sets of 20–500 of them (pins);
// `mws serve` is the built CLI. Prints one table per size and writes bench/results/scale.json.
//   BENCH_SCALE_SIZES=500,5000,20000   toolbox sizes (default 500,5000; empty: the usage part only)
//   BENCH_SCALE_PAGE=0                 tools/list page size of the upstream (0: one reply)
//   BENCH_SCALE_CALLS=10000            calls to distinct tools before the memory figure
//   BENCH_SCALE_LIST_WARMUP=20         tools/list calls per client before its 200 timed ones
//   BENCH_SCALE_USAGE_LINES=1000000    calls.jsonl backlog read by one usage cycle
//   BENCH_SCALE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p"   node flags for `mws serve` (profiles)
//   BENCH_SCALE_HEAP_SNAPSHOTS=1       heap snapshots of `mws serve` at each RSS figure (in its cwd)
//   BENCH_SCALE_SERVE_LOG=/tmp/serve.log   mws serve's output, written when it ends (with BENCH_SCALE_NODE_ARGS=--trace-gc: its collections)
//   BENCH_SCALE_LONG_REST_MS=60000     the last figure of each size: RSS after this long without a request (0: none)
//   BENCH_SCALE_SMAPS=1                where each RSS figure lives (/proc/PID/smaps by mapping), on stderr
//   BENCH_SCALE_CLI_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/c"   node flags for the timed CLI commands
//   BENCH_SCALE_SLOW_SEARCH_MS=15      print each search_tools slower than this, at its time from start (to find it in a --cpu-prof timeline)
//   BENCH_SCALE_HOLD=1                 keep the last size's mws serve running at the end (its config on stderr), to time or profile CLI commands against it
//   BENCH_SCALE_START_ONLY=1           stop after the start figures (listening, first list, RSS after start and at rest; the start heap snapshot after both);
//                                      with BENCH_SCALE_HOLD=1 mws serve stays up after them
//   BENCH_SCALE_CLI=out-base/main/launch.mjs   another build to measure (the previous commit's `out/`, copied to out-base/, which git and lint ignore;
//                                      builds before the code cache: out-base/main/cli.js)
//   BENCH_SCALE_FRESH_CODE=1           the CLI's code cache in a new folder: the first start after an install or upgrade
//                                      (by default the user's cache: each command's first run saves it, later runs use it)
//   BENCH_SCALE_FRESH_VECTORS=1        start without the tool vectors' cache (a first start ever: the model
//                                      embeds the toolbox in the background during the whole run)
//   BENCH_SCALE_FRESH_CATALOG=1        start without the last good catalog (a first start ever: every tool is
//                                      listed, hashed, indexed and saved during the start)
// The tool vectors a run builds are kept in the OS temp folder (mws-bench-scale-vectors/<N>-<fixture's hash>.bin) and put in
// the next run's state folder, as a restarted instance finds its own: embedding 5,000 tools takes ~80 s
// of a core, which would otherwise run beside every figure after the first search. The catalog it saved
// (<N>-<fixture's hash>-catalog.json) likewise: a restart starts from its last good copy and finds the live list the same.
// Targets at 5,000 tools × 100 agents are printed beside each figure.
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync, existsSync, readdirSync, statSync, renameSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT, deadPort } from '../test/helpers/processes.js';
import { setsHarness } from '../test/helpers/sets.js';
import { summarize } from './stats.js';
import { stallWatch } from './schedstat.js';
import { until } from './until.js';
import { childRunning, rssWithModel } from './procMemory.js';
import { IDLE_CHECK_MS, SETTLE_MS } from '../src-main/core/http/garbage.js';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '500,5000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0); // empty: the usage part only
const PAGE = Number(process.env.BENCH_SCALE_PAGE ?? 0);
const CALLS = Number(process.env.BENCH_SCALE_CALLS ?? 10_000);
/** Lists each client makes before its 200 timed ones (its own JIT warming up is not the instance's latency). */
const LIST_WARMUP = Number(process.env.BENCH_SCALE_LIST_WARMUP ?? 20);
const USAGE_LINES = Number(process.env.BENCH_SCALE_USAGE_LINES ?? 1_000_000);
const NODE_ARGS = (process.env.BENCH_SCALE_NODE_ARGS ?? '').split(' ').filter(Boolean);
const SNAPSHOTS = process.env.BENCH_SCALE_HEAP_SNAPSHOTS === '1';
const START_ONLY = process.env.BENCH_SCALE_START_ONLY === '1';
const HOLD = process.env.BENCH_SCALE_HOLD === '1';
const CLI_NODE_ARGS = (process.env.BENCH_SCALE_CLI_NODE_ARGS ?? '').split(' ').filter(Boolean);
const SLOW_SEARCH_MS = process.env.BENCH_SCALE_SLOW_SEARCH_MS ? Number(process.env.BENCH_SCALE_SLOW_SEARCH_MS) : undefined;
const SMAPS = process.env.BENCH_SCALE_SMAPS === '1';
const SERVE_LOG = process.env.BENCH_SCALE_SERVE_LOG;
const LONG_REST_MS = Number(process.env.BENCH_SCALE_LONG_REST_MS ?? 60_000);
const FRESH_VECTORS = process.env.BENCH_SCALE_FRESH_VECTORS === '1';
const FRESH_CATALOG = process.env.BENCH_SCALE_FRESH_CATALOG === '1';
const CATALOG_FILE = 'catalog.json';
if (process.env.BENCH_SCALE_FRESH_CODE === '1') process.env.MWS_CODE_CACHE = mkdtempSync(join(tmpdir(), 'mws-bench-code-'));
const VECTORS_DIR = join(tmpdir(), 'mws-bench-scale-vectors');
const VECTORS_FILE = 'search-vectors.bin';
const AGENTS = 100;
/** How long after a burst the RSS at rest is read: longer than the instance's idle check and settle (src-main/core/http/garbage.ts). */
const REST_MS = 2 * IDLE_CHECK_MS + SETTLE_MS + 2_000;
const CLI = resolve(process.env.BENCH_SCALE_CLI ?? join(ROOT, 'bin', 'mws.js'));
const MANY = join(ROOT, 'bench', 'fixtures', 'manyTools.mjs');
const { makeTool } = (await import(MANY)) as { makeTool: (i: number) => { name: string } };

type Row = [string, string, string];
const ms = (n: number) => `${n < 10 ? n.toFixed(2) : Math.round(n)} ms`;
const mb = (n: number) => `${Math.round(n)} MB`;

const ownSignalFetch: typeof fetch = (input, init) => {
  const { signal: _shared, ...rest } = init ?? {};
  return fetch(input, rest);
};

/** RSS by mapping (file, [heap], anonymous), largest first: where memory outside V8's heap lives. */
function smaps(pid: number): string {
  const by = new Map<string, number>();
  let name = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) name = head[1] || '[anonymous]';
    else if (line.startsWith('Rss:')) by.set(name, (by.get(name) ?? 0) + Number(/(\d+)/.exec(line)![1]) / 1024);
  }
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, v]) => `${Math.round(v)} MB ${k.split('/').slice(-2).join('/')}`)
    .join(' · ');
}

function timeCli(args: string[], env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...CLI_NODE_ARGS, CLI, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 1 << 28,
  });
  const t = performance.now() - t0;
  if (r.status !== 0) throw new Error(`mws ${args.join(' ')} failed (${r.status ?? r.signal} ${r.error?.message ?? ''}): ${r.stderr}`);
  return t;
}

/**
 * The instance's vectors file (all of them once the run waited for the embedding) and its catalog, for
 * the next run of this size.
 */
function keepCaches(stateDir: string, n: number): void {
  mkdirSync(VECTORS_DIR, { recursive: true });
  // Through a temp file: a bench running beside this one never starts from half a copy.
  const keep = (from: string, to: string) => {
    if (!existsSync(from)) return;
    copyFileSync(from, `${to}.${process.pid}`);
    renameSync(`${to}.${process.pid}`, to);
  };
  keep(join(stateDir, VECTORS_FILE), keptVectorsOf(n));
  keep(join(stateDir, CATALOG_FILE), keptCatalogOf(n));
}
/** The fixture's own bytes name what is kept: a changed fixture never starts from the old one's vectors or catalog. */
const FIXTURE_KEY = createHash('sha256').update(readFileSync(MANY)).digest('hex').slice(0, 12);
const keptVectorsOf = (n: number) => join(VECTORS_DIR, `${n}-${FIXTURE_KEY}.bin`);
const keptCatalogOf = (n: number) => join(VECTORS_DIR, `${n}-${FIXTURE_KEY}-catalog.json`);

/** With BENCH_SCALE_HEAP_SNAPSHOTS=1: a heap snapshot of mws serve, written whole before the bench goes on. */
async function snapshot(mws: ChildProcess, dir: string, label: string): Promise<void> {
  if (!SNAPSHOTS) return;
  const snaps = () => readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
  const before = new Set(snaps());
  mws.kill('SIGUSR1');
  const file = await until(() => snaps().find((f) => !before.has(f)), 120_000, `heap snapshot ${label}`);
  let size = -1;
  await until(
    async () => {
      await new Promise((r) => setTimeout(r, 500));
      const now = statSync(join(dir, file)).size;
      if (now === size && now > 0) return true;
      size = now;
      return undefined;
    },
    300_000,
    `heap snapshot ${label} written`,
  );
  renameSync(join(dir, file), join(dir, `${label}.heapsnapshot`));
  console.error(`heap snapshot: ${join(dir, `${label}.heapsnapshot`)}`);
}

/** Set size of agent i: 20 … 500, spread evenly over the agents. */
const setSize = (i: number, n: number) => Math.min(n, 20 + Math.round((i * 480) / (AGENTS - 1)));

async function scale(n: number): Promise<Row[]> {
  const rows: Row[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), `mws-scale-${n}-`));
  const port = await deadPort();
  const names = Array.from({ length: n }, (_, i) => makeTool(i).name);
  const agents = Array.from({ length: AGENTS }, (_, i) => ({
    id: `a${i}`,
    cap: 500,
    approvals: 'allow',
    pins: names.slice(0, setSize(i, n)),
  }));
  const cfg = join(stateDir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstream: { command: process.execPath, args: [MANY, String(n), String(PAGE)] },
      stateDir,
      listen: { port },
      agents,
      timeouts: { listMs: 120_000, catalogTtlMs: 30_000 },
    }),
  );
  const env = { MWS_CONFIG: cfg };
  const warmVectors = !FRESH_VECTORS && existsSync(keptVectorsOf(n));
  if (warmVectors) copyFileSync(keptVectorsOf(n), join(stateDir, VECTORS_FILE));
  const warmCatalog = !FRESH_CATALOG && existsSync(keptCatalogOf(n));
  if (warmCatalog) copyFileSync(keptCatalogOf(n), join(stateDir, CATALOG_FILE));

  const t0 = performance.now();
  const nodeArgs = [...NODE_ARGS, ...(SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR1'] : [])];
  const mws: ChildProcess = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--config', cfg], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: stateDir,
  });
  let out = '';
  mws.stdout!.on('data', (d) => (out += d));
  mws.stderr!.on('data', (d) => (out += d));
  if (SERVE_LOG) mws.once('close', () => writeFileSync(SERVE_LOG, out));
  let exited = false;
  mws.once('exit', () => (exited = true));
  const url = await until(
    () => {
      if (exited) throw new Error(`mws serve exited: ${out}`);
      return /listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1];
    },
    60_000,
    'mws serve listening',
  );
  const listening = performance.now() - t0;
  /** RSS, and what V8 says of its heap and of memory outside it (the instance's /metrics). */
  const memory = async (): Promise<string> => {
    const both = rssWithModel(mws.pid!);
    // The model runs in a process of its own: its memory is given beside mws serve's, never left out.
    const r = `${mb(both.own + both.model)} (${both.model ? `mws ${mb(both.own)} + model process ${mb(both.model)}; PSS of both` : 'PSS'} ${mb(both.together)})`;
    if (SMAPS) console.error(`smaps: ${smaps(mws.pid!)}`);
    try {
      const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
      const text = await (await fetch(url.replace(/\/mcp$/, '/metrics'), { headers: { authorization: `Bearer ${token}` } })).text();
      const g = (name: string) => Math.round(Number(new RegExp(`^mws_process_${name} (\\S+)$`, 'm').exec(text)?.[1]) / 1024 / 1024);
      const young = Math.round(
        Number(/^mws_process_nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)$/m.exec(text)?.[1]) / 1024 / 1024,
      );
      return `${r} (heap ${g('nodejs_heap_size_used_bytes')} of ${g('nodejs_heap_size_total_bytes')} MB, young ${young} MB, external ${g('nodejs_external_memory_bytes')} MB)`;
    } catch {
      return r;
    }
  };
  const atRest = async (target = 'target < 180 MB') => {
    await new Promise((r) => setTimeout(r, REST_MS));
    return [`RSS ${REST_MS / 1000} s later (at rest)`, await memory(), target] as Row;
  };
  /** A tray app's figure: V8's own memory reducer and background work (counting a new toolbox) take tens of seconds to settle. */
  const longRest = async (target: string) => {
    await new Promise((r) => setTimeout(r, LONG_REST_MS));
    return [`RSS after ${LONG_REST_MS / 1000} s without a request`, await memory(), target] as Row;
  };
  rows.push(['start catalog', warmCatalog ? 'the last good copy (a restart)' : 'listed in this run (a first start)', '']);
  rows.push(['listening', ms(listening), 'target < 400 ms']);

  const connect = async (agent: string, era: 'auto' | 'legacy' = 'auto', onChanged?: () => void) => {
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
  const big = await connect(`a${AGENTS - 1}`);
  const want = setSize(AGENTS - 1, n) + 4;
  await until(async () => ((await big.listTools()).tools.length >= want ? true : undefined), 180_000, 'the first full list');
  rows.push(['first full list (from start)', ms(performance.now() - t0), '']);
  rows.push(['RSS after start', await memory(), 'target < 130 MB']);
  // The same once the start's burst is over (the instance's own collection after a quiet spell, http/garbage.ts).
  rows.push(await atRest('target < 130 MB'));
  await snapshot(mws, stateDir, 'start');
  if (START_ONLY) {
    await big.close().catch(() => {});
    if (LONG_REST_MS > 0) rows.push(await longRest('target < 130 MB'));
    if (HOLD) console.error(`holding: MWS_CONFIG=${cfg} pid ${mws.pid} (Ctrl-C or SIGTERM ends it)`);
    else mws.kill('SIGTERM');
    await new Promise((r) => mws.once('exit', r));
    return rows;
  }

  // tools/list by set size (the fast path, 2026-07-28).
  for (const i of [0, Math.floor(AGENTS / 2), AGENTS - 1]) {
    const c = i === AGENTS - 1 ? big : await connect(`a${i}`);
    const lat: number[] = [];
    // Warmed up first, as every figure here: a new client's first lists are its own JIT's (the SDK
    // client parses and checks 500 tools in ~9 of the ~12 ms a list takes; the instance answers in ~2.5).
    for (let k = 0; k < LIST_WARMUP; k++) await c.listTools();
    for (let k = 0; k < 200; k++) {
      const s = performance.now();
      await c.listTools();
      lat.push(performance.now() - s);
    }
    const r = summarize(lat);
    rows.push([`tools/list, ${setSize(i, n)} tools`, `p50 ${ms(r.p50)} · p99 ${ms(r.p99)}`, i === AGENTS - 1 ? 'p99 < 20 ms' : '']);
    if (c !== big) await c.close();
  }

  // Control requests (status, reports, the sweep preview) with the instance's token.
  const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
  const control = async (method: string, args: unknown) => {
    const s = performance.now();
    const r = await fetch(`${url.replace(/\/mcp$/, '')}/control/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    if (!r.ok) throw new Error(`control ${method}: HTTP ${r.status} ${await r.text()}`);
    const text = await r.text();
    return { ms: performance.now() - s, text };
  };
  // search_tools: the first (index built after the change, off the request path) and 200 more.
  const queries = [
    'create an invoice in stripe',
    'list github issues',
    'share a file on google drive',
    'delete a slack message',
    'export a report',
    'sync contacts with hubspot',
    'archive a jira ticket',
    'update an order',
  ];
  const searchRun = async (label: string) => {
    let s0 = performance.now();
    await big.callTool({ name: 'search_tools', arguments: { query: `find a calendar event ${label}` } });
    const first = performance.now() - s0;
    const sl: number[] = [];
    for (let k = 0; k < 200; k++) {
      s0 = performance.now();
      await big.callTool({ name: 'search_tools', arguments: { query: `${queries[k % queries.length]!} ${label}` } });
      sl.push(performance.now() - s0);
      if (SLOW_SEARCH_MS !== undefined && sl.at(-1)! > SLOW_SEARCH_MS)
        console.error(`slow search_tools at ${((s0 - t0) / 1000).toFixed(3)} s from start: ${sl.at(-1)!.toFixed(1)} ms`);
    }
    return { first, ...summarize(sl) };
  };
  const status = async () => {
    const r = await control('status', {});
    return (JSON.parse(r.text) as { result: { semanticSearch?: { state: string; embedded: number; total: number } } }).result;
  };
  const s1 = await searchRun('a');
  const v1 = (await status()).semanticSearch;
  const building = v1 && v1.state !== 'off' && v1.embedded < v1.total;
  rows.push([
    building ? 'search_tools while the toolbox is embedded' : 'search_tools (round trip, model on)',
    `first ${ms(s1.first)} · p50 ${ms(s1.p50)} · p99 ${ms(s1.p99)}`,
    building ? `${v1.embedded} of ${v1.total} embedded after it` : 'p99 < 30 ms',
  ]);
  if (building) {
    const t = performance.now();
    await until(
      async () => {
        const v = (await status()).semanticSearch;
        return !v || v.state === 'off' || v.embedded >= v.total ? true : undefined;
      },
      900_000,
      'the toolbox embedded',
    );
    const s2 = await searchRun('b');
    rows.push([
      'search_tools (vectors ready)',
      `p50 ${ms(s2.p50)} · p99 ${ms(s2.p99)} (embedded in ${Math.round((performance.now() - t) / 1000)} s more)`,
      'p99 < 30 ms',
    ]);
  }
  rows.push(['search_tools vectors', warmVectors ? 'from the cache (a restart)' : 'built in this run (a first start)', '']);

  // Calls to distinct tools (direct calls of tools outside the set are forwarded too).
  const cl: number[] = [];
  for (let k = 0; k < CALLS; k++) {
    const s = performance.now();
    await big.callTool({ name: names[k % n]!, arguments: { id: `x${k}` } });
    cl.push(performance.now() - s);
  }
  const cr = summarize(cl);
  rows.push([`${CALLS} calls to ${Math.min(CALLS, n)} distinct tools`, `p50 ${ms(cr.p50)} · p99 ${ms(cr.p99)}`, '']);
  rows.push(['RSS after the calls', await memory(), 'target < 180 MB']);
  rows.push(await atRest());
  await snapshot(mws, stateDir, 'calls');

  // Reports and the sweep preview: through the CLI (a new process that finds the instance) and control.
  const reportFirst = (await control('report', {})).ms;
  const reportAgain = (await control('report', {})).ms;
  rows.push(['report, all agents (control)', `first ${ms(reportFirst)} · again ${ms(reportAgain)}`, 'target < 200 ms both']);
  rows.push(['RSS after a report', await memory(), 'target < 180 MB']);
  rows.push(await atRest());
  await snapshot(mws, stateDir, 'report');
  rows.push(['mws report (CLI, running instance)', ms(timeCli(['report', '--json'], env)), 'target < 300 ms']);
  // What any command pays before its work (node, the CLI's own modules) and for a small control call.
  rows.push(['  mws --version · mws status --json', `${ms(timeCli(['--version'], env))} · ${ms(timeCli(['status', '--json'], env))}`, '']);
  const now = new Date(Date.now() + 30 * 86_400_000).toISOString();
  rows.push(['sweep --dry-run (control)', ms((await control('sweepPreview', { now })).ms), '']);
  rows.push(['mws sweep --dry-run (CLI)', ms(timeCli(['sweep', '--dry-run', '--now', now, '--json'], env)), 'target < 500 ms']);

  // The vectors and catalog of the toolbox as it started serve the next run: kept before the change
  // below, which would leave the next run one tool to embed and list anew at its start (and its rest
  // figures unsettled).
  keepCaches(stateDir, n);

  // list_changed: one tool in every set changes upstream; time until 100 clients (half of each era) hear it.
  const heard: number[] = [];
  let sentAt = 0;
  const listeners: Client[] = [];
  for (let i = 0; i < AGENTS; i++)
    listeners.push(await connect(`a${i}`, i % 2 ? 'legacy' : 'auto', () => heard.push(performance.now() - sentAt)));
  // Modern clients hear list_changed on a subscription stream: give them a moment to open it.
  await new Promise((r) => setTimeout(r, 1000));
  const upstreamPid = childRunning(mws.pid!, 'manyTools.mjs');
  if (upstreamPid) {
    sentAt = performance.now();
    process.kill(upstreamPid, 'SIGUSR2');
    await until(
      () => (heard.length >= AGENTS ? true : undefined),
      30_000,
      `list_changed at ${AGENTS} clients (heard ${heard.length})`,
    ).catch((e: Error) => console.error(e.message));
    const h = summarize(heard);
    rows.push([
      `list_changed → ${heard.length} of ${AGENTS} clients`,
      `p50 ${ms(h.p50)} · last ${ms(Math.max(...heard))}`,
      'target < 300 ms',
    ]);
  } else rows.push(['list_changed', 'upstream pid not found', '']);
  await Promise.all([...listeners, big].map((c) => c.close().catch(() => {})));
  if (LONG_REST_MS > 0) rows.push(await longRest('target < 180 MB'));
  if (HOLD && n === SIZES.at(-1)) console.error(`holding: MWS_CONFIG=${cfg} (Ctrl-C or SIGTERM ends it)`);
  else mws.kill('SIGTERM');
  await new Promise((r) => mws.once('exit', r));
  return rows;
}

async function usageBacklog(lines: number): Promise<Row[]> {
  const h = await setsHarness();
  const path = join(h.stateDir, 'calls.jsonl');
  const t = h.clock.now() - 86_400_000;
  const chunk: string[] = [];
  writeFileSync(path, '');
  const { appendFileSync } = await import('node:fs');
  for (let i = 0; i < lines; i++) {
    chunk.push(
      JSON.stringify({
        ts: new Date(t + i * 50).toISOString(),
        agent: `a${i % AGENTS}`,
        tool: `t${i % 5000}`,
        via: 'direct',
        ok: i % 50 !== 0,
        ms: 1,
        client: 'c',
        session: `s${Math.floor(i / 200)}`,
      }),
    );
    if (chunk.length === 50_000) appendFileSync(path, chunk.splice(0).join('\n') + '\n');
  }
  if (chunk.length) appendFileSync(path, chunk.join('\n') + '\n');
  const watch = stallWatch();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await h.sets.cycle(h.clock.now());
  const took = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const w = watch.stop();
  const size = readFileSync(join(h.stateDir, 'usage.json')).length / 1024 / 1024;
  await h.close();
  return [
    [
      `usage: ${lines.toLocaleString('en')}-line backlog, one cycle`,
      `${ms(took)} (CPU ${ms((cpu.user + cpu.system) / 1000)})`,
      'target < 15 s',
    ],
    ['usage: longest event-loop stall meanwhile', `${ms(w.wall)} · p99 ${ms(w.wallP99)}`, 'target ~20 ms'],
    // Wall stalls on a busy machine are mostly time the thread waited for a core; this is its own work.
    ['usage: longest stall on a core (main thread)', `${ms(w.cpu)} · p99 ${ms(w.cpuP99)} (±4 ms tick)`, 'target ~20 ms'],
    ['usage: longest stall less waiting for a core', `${ms(w.own)} · p99 ${ms(w.ownP99)}`, 'target ~20 ms'],
    ['usage.json after it', `${size.toFixed(1)} MB`, ''],
  ];
}

if (!existsSync(join(ROOT, 'out', 'main', 'mws.cjs'))) throw new Error('out/main/mws.cjs is missing: run npm run build first.');
const results: Record<string, Row[]> = {};
const help: number[] = [];
for (let i = 0; i < 5; i++) help.push(timeCli(['--help'], {}));
results.cli = [['mws --help (built CLI)', `p50 ${ms(summarize(help).p50)}`, 'target < 300 ms']];
for (const n of SIZES) results[`${n} tools${PAGE ? `, pages of ${PAGE}` : ''}`] = await scale(n);
if (USAGE_LINES > 0) results.usage = await usageBacklog(USAGE_LINES);

const w0 = Math.max(
  ...Object.values(results)
    .flat()
    .map((r) => r[0].length),
);
const w1 = Math.max(
  ...Object.values(results)
    .flat()
    .map((r) => r[1].length),
);
console.log(
  `\nbench/scale: ${AGENTS} agents, sets of 20–500 tools, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
for (const [section, rows] of Object.entries(results)) {
  console.log(`\n${section}`);
  for (const [a, b, c] of rows) console.log(`  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
}
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'scale.json'), JSON.stringify({ at: new Date().toISOString(), page: PAGE, results }, null, 2));
process.exit(0);
