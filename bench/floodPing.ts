// A ping beside a flood: a real `mws serve`, one tools/call with 300,000 unknown
// argument keys (3.5 MB) to a tool whose schema forbids them, and a ping every 10 ms on another
// connection. Prints the flood call's time and the slowest ping while it ran.
// Run: node --import tsx bench/floodPing.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnMws, waitForOutput } from '../test/helpers/processes.js';
import { tempDir } from '../test/helpers/app.js';

const dir = tempDir('mws-floodping-');
const cfg = join(dir, 'config.json');
writeFileSync(cfg, JSON.stringify({ upstream: { builtin: 'demo' }, stateDir: join(dir, 'state'), listen: { port: 0 } }));
const serve = spawnMws(['serve', '--config', cfg]);
const url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
const env = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const post = (method: string, params: Record<string, unknown>, name?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: env } }),
  }).then((r) => r.text());
const args: Record<string, unknown> = { messageId: 'm1' };
for (let i = 0; i < 300_000; i++) args[`k${i}`] = 0;
// Warm: the validator loads on first use.
await post('tools/call', { name: 'mail_get_message', arguments: { messageId: 'm1', extra: 1 } }, 'mail_get_message');
for (let round = 0; round < 3; round++) {
  let worst = 0;
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const t = performance.now();
      await post('ping', {});
      worst = Math.max(worst, performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const answer = await post('tools/call', { name: 'mail_get_message', arguments: args }, 'mail_get_message');
  const floodMs = performance.now() - t0;
  done = true;
  await pinger;
  console.log(
    `round ${round + 1}: flood call ${floodMs.toFixed(0)} ms (${answer.includes('first problem') ? 'first problem answered' : answer.slice(0, 80)}), slowest parallel ping ${worst.toFixed(0)} ms`,
  );
}
await serve.kill();
