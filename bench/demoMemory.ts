// `mws serve --demo`'s resident memory after 1,000 calls, with the search model loaded (one
// search_tools first) and without it (no search), side by side, alternating runs. The built CLI; RSS
// read from /proc 10 s after the last call (at rest: what a tray app keeps) and 30 s after it, mws
// serve's and its model process's together.
//   node --import tsx bench/demoMemory.ts [--runs 3] [--calls 1000]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT, listeningBase, spawnNode } from '../test/helpers/processes.js';
import { rssWithModel } from './procMemory.js';
import { IDLE_CHECK_MS, SETTLE_MS } from '../src-main/core/http/garbage.js';

const arg = (name: string, d: number) => (process.argv.indexOf(name) > 0 ? Number(process.argv[process.argv.indexOf(name) + 1]) : d);
const RUNS = arg('--runs', 3);
const CALLS = arg('--calls', 1000);
/** Longer than the instance's idle check and settle before its collection (src-main/core/http/garbage.ts). */
const REST_MS = 2 * IDLE_CHECK_MS + SETTLE_MS + 2_000;
/** The last reading, this long after the calls. */
const LATER_MS = 30_000;
const CLI = process.env.BENCH_DEMO_CLI ?? join(ROOT, 'bin', 'mws.js');
/** mws serve's RSS, its model process's, and the PSS of both together (shared pages counted once). */
const rss = (pid: number) => {
  const m = rssWithModel(pid);
  return `${m.own.toFixed(0)}${m.model ? ` + ${m.model.toFixed(0)}` : ''} (PSS ${m.together.toFixed(0)})`;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(model: boolean): Promise<{ start: string; model: string; calls: string; later: string }> {
  const home = mkdtempSync(join(tmpdir(), 'mws-demo-mem-'));
  const serve = spawnNode(CLI, ['serve', '--demo', '--port', '0'], { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  try {
    const base = await listeningBase(serve);
    const pid = serve.proc.pid!;
    const client = new Client({ name: 'demo-mem', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    await pause(REST_MS);
    const start = rss(pid);
    if (model) {
      await client.callTool({ name: 'search_tools', arguments: { query: 'send an email to my team' } });
      // The model loads and embeds the demo's tools in the background; then a query uses it.
      await pause(8_000);
      await client.callTool({ name: 'search_tools', arguments: { query: 'what is on my calendar tomorrow' } });
      await pause(REST_MS);
    }
    const afterModel = rss(pid);
    for (let i = 0; i < CALLS; i++)
      await client.callTool({ name: 'call_tool', arguments: { name: 'mail_get_message', arguments: { messageId: 'm1' } } });
    await pause(REST_MS);
    const calls = rss(pid);
    // A tray app stays at rest for far longer: what it holds once every collection asked for has run.
    await pause(LATER_MS - REST_MS);
    const later = rss(pid);
    await client.close();
    return { start, model: afterModel, calls, later };
  } finally {
    await serve.kill();
  }
}

const rows: string[] = [];
for (let r = 0; r < RUNS; r++)
  for (const model of [true, false]) {
    const m = await once(model);
    rows.push(`| ${r + 1} | ${model ? 'on' : 'off'} | ${m.start} | ${m.model} | ${m.calls} | ${m.later} |`);
    console.log(rows[rows.length - 1]);
  }
console.log(
  `\nRSS of mws serve + its model process, MB (PSS of both together)\n| run | model | at start | after the model loaded | after ${CALLS} calls, at rest (${REST_MS / 1000} s) | ${LATER_MS / 1000} s after them |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}`,
);
