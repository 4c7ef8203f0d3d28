// A saved secret only ever goes to the server it was saved for, against a real `mws serve` and two
// loopback servers that record the Authorization header they receive: testUpstream and saveUpstream
// naming a saved upstream with a URL of another origin are refused when a masked value, a left-out
// field or a reference would carry the saved secret there; the same origin still gets it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { MASK } from '../../src-main/core/control/upstreamConfig.js';
import { deadPort, spawnMws, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

const SECRET = 'Bearer hunter2-saved-for-a';

type Recorder = { origin: string; auth: string[]; close: () => Promise<void> };

/** Answers 404 to everything and records every Authorization header sent to it. */
async function recorder(): Promise<Recorder> {
  const auth: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    auth.push(req.headers.authorization ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    auth,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

let serve: Running;
let api: ControlApi;
let a: Recorder;
let b: Recorder;
let cfg = '';

beforeAll(async () => {
  a = await recorder();
  b = await recorder();
  const dir = tempDir('mws-saved-secret-');
  cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: {
        demo: { builtin: 'demo' },
        saved: { url: `${a.origin}/mcp`, headers: { Authorization: SECRET }, enabled: false },
      },
      stateDir,
      listen: { port: await deadPort() },
    }),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  const base = await listeningBase(serve);
  api = httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim(), 30_000);
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  await a?.close();
  await b?.close();
});

const refusal = /a saved secret only ever goes to the server it was saved for, so header Authorization would not be sent/;

describe('a saved secret goes only to the URL it was saved for (real mws serve)', () => {
  it('refuses testUpstream with the saved name, a new origin and the masked header; the new server hears nothing', async () => {
    await expect(
      api.testUpstream({ vendor: 'saved', upstream: { url: `${b.origin}/mcp`, headers: { Authorization: MASK } } }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(refusal) });
    // Left out, the headers would be kept from the saved upstream: refused the same way.
    await expect(api.testUpstream({ vendor: 'saved', upstream: { url: `${b.origin}/mcp` } })).rejects.toMatchObject({
      message: expect.stringMatching(refusal),
    });
    expect(b.auth).toEqual([]);
  });

  it('refuses a reference to the saved secret sent to a new origin, once the secret is in the store', async () => {
    expect((await api.migrateSecrets({})).moved).toContain('upstreams.saved.headers.Authorization');
    await expect(
      api.testUpstream({
        vendor: 'saved',
        upstream: { url: `${b.origin}/mcp`, headers: { Authorization: '${secret:upstreams.saved.headers.Authorization}' } },
      }),
    ).rejects.toMatchObject({ message: expect.stringMatching(refusal) });
    expect(b.auth).toEqual([]);
  });

  it('refuses saveUpstream moving the masked secret to a new origin, and leaves the config as it was', async () => {
    const before = readFileSync(cfg, 'utf8');
    await expect(
      api.saveUpstream({ vendor: 'saved', replace: true, upstream: { url: `${b.origin}/mcp`, headers: { Authorization: MASK } } }),
    ).rejects.toMatchObject({ message: expect.stringMatching(refusal) });
    expect(readFileSync(cfg, 'utf8')).toBe(before);
    // Typed again, the value is the user's choice for the new server.
    const r = await api.testUpstream({
      vendor: 'saved',
      upstream: { url: `${b.origin}/mcp`, headers: { Authorization: 'Bearer typed-for-b' } },
    });
    expect(r.ok).toBe(false);
    expect(b.auth.length).toBeGreaterThan(0);
    expect(new Set(b.auth)).toEqual(new Set(['Bearer typed-for-b']));
  });

  it('still sends the saved secret to its own origin (another path) when the form sends it back masked', async () => {
    const r = await api.testUpstream({ vendor: 'saved', upstream: { url: `${a.origin}/other`, headers: { Authorization: MASK } } });
    expect(r.ok).toBe(false);
    expect(a.auth).toContain(SECRET);
  });
});
