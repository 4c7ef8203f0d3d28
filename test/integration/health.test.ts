// /healthz and /readyz on the state folder (no database): alive at once; ready once an upstream is up,
// and not ready when the only upstream cannot be reached. /metrics needs the control token.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { deadPort, stdioFixture } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((a) => a.stop()));
});

describe('health on the state folder', () => {
  it('is alive and ready with its upstream up; metrics only with the control token', async () => {
    const a = await startApp({ upstreams: { fx: stdioFixture() } });
    apps.push(a);
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    const ready = await until(async () => {
      const r = await fetch(`${a.url}/readyz`);
      return r.status === 200 && ((await r.json()) as Record<string, unknown>);
    }, 'the app to be ready');
    expect(ready).toMatchObject({ ready: true, database: 'none', upstreams: { up: 1 } });
    expect((await fetch(`${a.url}/metrics`)).status).toBe(401);
    const token = readFileSync(join(a.stateDir, 'control-token'), 'utf8').trim();
    const m = await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(await m.text()).toMatch(/mws_upstream_up\{upstream="fx",status="up"\} 1/);
    expect((await fetch(`${a.url}/readyz`, { method: 'POST' })).status).toBe(405);
  });

  it('is alive but not ready when its only upstream cannot be reached', async () => {
    const a = await startApp({ upstreams: { dead: { url: `http://127.0.0.1:${await deadPort()}/mcp` } }, timeouts: { listMs: 500 } });
    apps.push(a);
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    const body = await until(async () => {
      const r = await fetch(`${a.url}/readyz`);
      const b = (await r.json()) as { reason?: string };
      return r.status === 503 && b.reason === 'no upstream can be reached' && b;
    }, 'readyz to say no upstream can be reached');
    expect(body).toMatchObject({ ready: false, database: 'none' });
  });
});
