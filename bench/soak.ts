// A soak: many sequential calls through `mws serve`, sampling the process's resident memory, so a
// leak on the call path shows as growth that does not level off. (The app is meant to run for months.)
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT, spawnTs, waitForOutput } from '../test/helpers/processes.js';

const CALLS = Number(process.env.SOAK_CALLS ?? 40_000);
const SAMPLE_EVERY = 5_000;

const dir = mkdtempSync(join(tmpdir(), 'mws-soak-'));
writeFileSync(join(dir, 'c.json'), JSON.stringify({ upstream: { command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'src-main/core/demo/stdio.ts')] }, stateDir: dir }));
const mws = spawnTs(join(ROOT, 'src-main/cli/run.ts'), ['serve', '--config', join(dir, 'c.json'), '--port', '0']);
const url = (await waitForOutput(mws, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
const rssMb = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${mws.proc.pid}/status`, 'utf8'))?.[1]) / 1024);

const client = new Client({ name: 'soak', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const samples: Array<{ calls: number; rssMb: number }> = [];
for (let i = 0; i <= CALLS; i++) {
  if (i % SAMPLE_EVERY === 0) samples.push({ calls: i, rssMb: rssMb() });
  await client.callTool({ name: 'mail_get_message', arguments: { messageId: 'm1' } });
}
const settled = samples.filter((s) => s.calls >= 10_000);
const growth = settled.length > 1 ? settled[settled.length - 1]!.rssMb - settled[0]!.rssMb : 0;
console.log(`soak: ${CALLS} calls through mws serve; resident memory (MB) by calls:`);
console.log(samples.map((s) => `${s.calls / 1000}k ${s.rssMb}`).join('  '));
console.log(`growth after the first 10k calls: ${growth} MB ${growth <= 5 ? '(levelled off)' : '(still growing: look for a leak)'}`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'soak.json'), JSON.stringify({ at: new Date().toISOString(), calls: CALLS, samples, growthAfter10kMb: growth }, null, 2));
await client.close();
await mws.kill();
process.exit(0);
