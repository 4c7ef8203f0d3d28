// How much latency the proxy adds to a tool call. One SDK client (auto negotiation) calls the same
// stdio demo upstream four ways, rounds interleaved so machine noise hits every path alike:
//   direct     — the client spawns the upstream itself over stdio
//   floor      — a bare loopback HTTP server answering JSON-RPC alone (no HTTP proxy beats this)
//   mws        — through `mws serve`
//   mcp-proxy  — through the npm mcp-proxy package, a common TypeScript stdio→HTTP proxy
// Target: mws p50 ≤ 1.2 × (floor p50 + direct p50), and mws p99 ≤ mcp-proxy p99.
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT, spawnTs, waitForOutput, type Running, deadPort } from '../test/helpers/processes.js';
import { spawn } from 'node:child_process';
import { fmt, summarize } from './stats.js';

const CALLS_PER_ROUND = Number(process.env.BENCH_CALLS_PER_ROUND ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const WARMUP = 200;
const DEMO_STDIO = join(ROOT, 'src-main', 'core', 'demo', 'stdio.ts');
const upstreamCmd = { command: process.execPath, args: ['--import', 'tsx', DEMO_STDIO] };

async function client(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await c.connect(transport);
  return c;
}

async function main(): Promise<void> {
  const children: Running[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-bench-'));
  const cfg = join(stateDir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ upstream: upstreamCmd, stateDir, timeouts: { listMs: 20000 } }));

  const mws = spawnTs(join(ROOT, 'src-main', 'cli', 'run.ts'), ['serve', '--config', cfg, '--port', '0']);
  children.push(mws);
  const floor = spawnTs(join(ROOT, 'bench', 'floorServer.ts'));
  children.push(floor);
  const proxyPort = await deadPort();
  const proxyBin = createRequire(import.meta.url).resolve('mcp-proxy/dist/bin/mcp-proxy.mjs');
  const proxyProc = spawn(process.execPath, [proxyBin, '--host', '127.0.0.1', '--port', String(proxyPort), '--server', 'stream', '--', upstreamCmd.command, ...upstreamCmd.args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let proxyOut = '';
  proxyProc.stdout.on('data', (d) => (proxyOut += d));
  proxyProc.stderr.on('data', (d) => (proxyOut += d));

  const mwsUrl = (await waitForOutput(mws, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  const floorPort = (await waitForOutput(floor, /PORT=(\d+)/, 'floor'))[1]!;
  for (let i = 0; i < 100 && !/listening|started|proxy/i.test(proxyOut); i++) await new Promise((r) => setTimeout(r, 100));

  const paths: Record<string, Client> = {
    direct: await client(new StdioClientTransport({ ...upstreamCmd, stderr: 'ignore' })),
    floor: await client(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${floorPort}/mcp`))),
    mws: await client(new StreamableHTTPClientTransport(new URL(mwsUrl))),
    'mcp-proxy': await client(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${proxyPort}/mcp`))),
  };
  const params = { name: 'mail_get_message', arguments: { messageId: 'm1' } };
  for (const c of Object.values(paths)) for (let i = 0; i < WARMUP; i++) await c.callTool(params);
  // Resident memory of the mws process, to see whether thousands of calls leave anything behind.
  const rssMb = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${mws.proc.pid}/status`, 'utf8'))?.[1]);
      return Math.round(kb / 102.4) / 10;
    } catch {
      return NaN;
    }
  };
  const rssBefore = rssMb();

  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  const order = Object.keys(paths);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so no path always runs right after another.
    const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
    for (const name of rotated) {
      const c = paths[name]!;
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        const t0 = performance.now();
        await c.callTool(params);
        samples[name]!.push(performance.now() - t0);
      }
    }
  }

  const rssAfter = rssMb();
  const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  const eras = Object.fromEntries(Object.entries(paths).map(([k, c]) => [k, c.getNegotiatedProtocolVersion()]));
  console.log(`call overhead: ${ROUNDS} rounds × ${CALLS_PER_ROUND} sequential calls per path, interleaved\n`);
  console.log('path        era          n      p50 ms   p99 ms   mean ms');
  for (const [k, v] of Object.entries(s)) console.log(`${k.padEnd(11)} ${String(eras[k]).padEnd(12)} ${String(v.n).padEnd(6)} ${fmt(v.p50).padStart(8)} ${fmt(v.p99).padStart(8)} ${fmt(v.mean).padStart(9)}`);
  const budget = 1.2 * (s.floor!.p50 + s.direct!.p50);
  const p50ok = s.mws!.p50 <= budget;
  const p99ok = s.mws!.p99 <= s['mcp-proxy']!.p99;
  console.log(`\nmws p50 ${fmt(s.mws!.p50)} ms vs budget 1.2 × (floor + direct) = ${fmt(budget)} ms: ${p50ok ? 'MET' : 'MISSED'} (ratio ${(s.mws!.p50 / (s.floor!.p50 + s.direct!.p50)).toFixed(2)})`);
  console.log(`mws p99 ${fmt(s.mws!.p99)} ms vs mcp-proxy p99 ${fmt(s['mcp-proxy']!.p99)} ms: ${p99ok ? 'MET' : 'MISSED'}`);
  console.log(`mws p50 / mcp-proxy p50 = ${(s.mws!.p50 / s['mcp-proxy']!.p50).toFixed(2)}`);
  console.log(`mws resident memory: ${rssBefore} MB after warm-up, ${rssAfter} MB after ${ROUNDS * CALLS_PER_ROUND} more calls`);

  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'call-overhead.json'), JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, callsPerRound: CALLS_PER_ROUND, eras, summary: s, budget, p50ok, p99ok, rssMb: { afterWarmup: rssBefore, afterRun: rssAfter } }, null, 2));

  await Promise.all(Object.values(paths).map((c) => c.close().catch(() => {})));
  proxyProc.kill('SIGTERM');
  await Promise.all(children.map((c) => c.kill()));
}

await main();
process.exit(0);
