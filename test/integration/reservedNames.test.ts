// Names from users, clients, upstreams and files never reach an object's prototype: a pin, an agent, an
// upstream or a tool named __proto__ or constructor is either refused with a sentence (where it is an
// id) or kept as the plain name it is, and the instance keeps answering — also after a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import { connectClient, tempDir } from '../helpers/app.js';

const apps: App[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.stop();
});

async function start(dir: string) {
  const cfgPath = join(dir, 'config.json');
  const raw = JSON.parse(readFileSync(cfgPath, 'utf8')) as Record<string, unknown>;
  const app = createApp({
    config: validateConfig(raw, dir),
    clock: systemClock,
    log: new MemoryLogger(),
    configFile: { path: cfgPath, raw },
    rendererDir: join(dir, 'no-renderer'),
  });
  apps.push(app);
  const url = (await app.start()).url;
  const token = readFileSync(join(dir, 'state', 'control-token'), 'utf8').trim();
  return {
    app,
    url,
    api: httpControlClient(url.replace(/\/mcp$/, ''), token),
    post: (m: string, body: unknown) =>
      fetch(`${url.replace(/\/mcp$/, '')}/control/${m}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }),
  };
}

function setup(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir: join(dir, 'state'), listen: { host: '127.0.0.1', port: 0 } }),
  );
  return dir;
}

describe('names that are also the names of an object prototype', () => {
  it('a pin of __proto__, constructor or toString answers with a sentence, and the instance keeps answering, also after a restart', async () => {
    const dir = setup();
    let s = await start(dir);
    for (const tool of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const r = await s.post('pin', { agent: 'default', tool, pinned: true });
      expect(r.status, `${tool}: ${await r.clone().text()}`).toBeLessThan(500);
      const body = (await r.json()) as { ok: boolean; error?: { message: string } };
      if (!body.ok) expect(body.error!.message).not.toMatch(/bug in mws/);
      expect((await s.api.status({})).toolboxSize, `status after pinning ${tool}`).toBeGreaterThan(0);
    }
    const c = await connectClient(`${s.url}/mcp`, 'legacy');
    await c.close();
    for (const tool of ['__proto__', 'constructor']) {
      const r = await s.post('promote', { agent: 'default', tool });
      expect(r.status, tool).toBe(404);
    }
    await s.app.stop();
    apps.splice(0);
    s = await start(dir);
    await expect.poll(async () => (await s.api.status({})).toolboxSize, { timeout: 20_000 }).toBeGreaterThan(0);
    const again = await connectClient(`${s.url}/mcp`, 'legacy');
    await again.close();
  });

  it('refuses an agent or an upstream named like a prototype property, with a sentence', async () => {
    const s = await start(setup());
    for (const id of ['constructor', '__proto__', 'prototype']) {
      const r = await s.post('createAgent', { id });
      expect(r.status, id).toBe(400);
    }
    const bad = await s.post('createAgent', { id: 'constructor' });
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/reserved/);
    const up = await s.post('saveUpstream', { vendor: 'constructor', upstream: { url: 'https://example.com/mcp' } });
    expect(up.status).toBe(400);
    expect((await s.api.status({})).toolboxSize).toBeGreaterThan(0);
  });

  it('a config file naming such an agent or upstream is refused with a sentence, not a crash', () => {
    const dir = tempDir();
    expect(() => validateConfig({ agents: [{ id: 'constructor' }] }, dir)).toThrow(/reserved/);
    expect(() => validateConfig(JSON.parse('{"upstreams": {"__proto__": {"url": "https://example.com/mcp"}}}'), dir)).toThrow(/reserved/);
    expect(() => validateConfig(JSON.parse('{"upstreams": {"constructor": {"url": "https://example.com/mcp"}}}'), dir)).toThrow(/reserved/);
  });
});
