// A soak: many sequential calls through the proxy, reading the JS heap after a forced collection every
// few thousand calls. A leak on the call path shows as a heap that keeps growing; resident memory alone
// would mislead, since V8 defers major collections while memory is plentiful. Needs --expose-gc
// (bench/run.ts passes it). The proxy runs in this process; its upstream is a real stdio child.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startApp } from '../test/helpers/app.js';
import { ROOT } from '../test/helpers/processes.js';

const CALLS = Number(process.env.SOAK_CALLS ?? 30_000);
const SAMPLE_EVERY = 5_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc (npm run bench does).');

const t = await startApp({ upstream: { command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'src-main/core/demo/stdio.ts')] } });
const client = new Client({ name: 'soak', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
const samples: Array<{ calls: number; heapMb: number; rssMb: number }> = [];
for (let i = 0; i <= CALLS; i++) {
  if (i % SAMPLE_EVERY === 0) {
    gc();
    const m = process.memoryUsage();
    samples.push({ calls: i, heapMb: Math.round(m.heapUsed / 1e5) / 10, rssMb: Math.round(m.rss / 1e6) });
  }
  await client.callTool({ name: 'mail_get_message', arguments: { messageId: 'm1' } });
}
// The first thousands of calls warm caches and JIT; judge the growth after them.
const settled = samples.filter((s) => s.calls >= 10_000);
const growth = settled.length > 1 ? Math.round((settled[settled.length - 1]!.heapMb - settled[0]!.heapMb) * 10) / 10 : 0;
console.log(`soak: ${CALLS} calls through the proxy; JS heap after GC (MB) by calls:`);
console.log(samples.map((s) => `${s.calls / 1000}k ${s.heapMb}`).join('  '));
console.log(
  `heap growth after the first 10k calls: ${growth} MB ${growth <= 3 ? '(flat: no leak on the call path)' : '(still growing: look for a leak)'}`,
);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'soak.json'),
  JSON.stringify({ at: new Date().toISOString(), calls: CALLS, samples, heapGrowthAfter10kMb: growth }, null, 2),
);
await client.close();
await t.stop();
process.exit(0);
