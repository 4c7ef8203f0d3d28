export {};
import { startApp } from '/work/wt/sec/test/helpers/app.ts';
import { rawRequest } from '/work/wt/sec/test/helpers/rawHttp.ts';
const t = await startApp({ upstream: { builtin: 'demo' } });
const port = new URL(t.url).port;
for (const [m, body] of [['DELETE', undefined], ['DELETE', '{}'], ['OPTIONS', '{}'], ['OPTIONS', undefined], ['DELETE', '']] as const) {
  const r = await rawRequest(t.url, m, '/mcp/', { origin: `http://127.0.0.1:${port}`, accept: '*/*', 'mcp-protocol-version': '2025-06-18' }, body);
  console.log(m, JSON.stringify(body), r.status, JSON.stringify(r.headers), r.body.slice(0, 200));
}
console.log(t.log.lines);
await t.stop();
