// Starting a replica on PostgreSQL fails with one sentence, never a hang or garbage: a database that
// cannot be reached, and a sealing key that is not the one the stored secrets were sealed with. One
// started with no key serves, and says secrets cannot be used until it has one.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/core/log.js';
import { openPostgresStore } from '../../src-main/core/statestore/postgres/store.js';
import { parseKey } from '../../src-main/core/statestore/seal.js';
import { tempDir } from '../helpers/app.js';
import { deadPort, exited, spawnMws, waitForOutput } from '../helpers/processes.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { until } from '../helpers/wait.js';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => {
  await db?.stop();
});

function configFor(url: string): string {
  const dir = tempDir('mws-start-');
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ listen: { port: 0 }, stateDir: join(dir, 'state'), store: { postgres: { url } } }));
  return cfg;
}

describe('starting a replica on PostgreSQL', () => {
  it('refuses with a sentence, within seconds, when the database cannot be reached', async () => {
    const t0 = Date.now();
    const r = spawnMws(['serve', '--config', configFor(`postgres://postgres:x@127.0.0.1:${await deadPort()}/mws`)]);
    expect(await exited(r, 'mws serve with a dead database')).not.toBe(0);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.stderr()).toMatch(/The state database \(127\.0\.0\.1:\d+\/mws\) cannot be reached now/);
    expect(r.stderr()).not.toMatch(/password|postgres:x@/);
  });

  it('refuses a sealing key other than the one the stored secrets were sealed with, naming both key ids', async () => {
    const url = await db.freshDatabase('startkey');
    const k1 = parseKey(randomBytes(32).toString('base64'), 'k1');
    const s = await openPostgresStore({ url, log: silentLogger, key: () => k1 });
    await s.secrets.set('gh.token', 'ghp_x');
    await s.close();
    const k2 = randomBytes(32).toString('base64');
    const r = spawnMws(['serve', '--config', configFor(url)], { MWS_STATE_KEY: k2 });
    expect(await exited(r, 'mws serve with the wrong key')).not.toBe(0);
    expect(r.stderr()).toContain(`sealed with (id ${k1.id})`);
    expect(r.stderr()).toMatch(/Start every replica with the same MWS_STATE_KEY/);
  });

  it('serves with no key, saying secrets and sign-ins cannot be used until one is set', async () => {
    const url = await db.freshDatabase('nokey');
    const r = spawnMws(['serve', '--config', configFor(url)], { MWS_STATE_KEY: '' });
    try {
      await waitForOutput(r, /listening on http/, 'mws serve without a key');
      expect(r.stderr()).toMatch(/No sealing key is set.*Until then, secrets and sign-ins kept in the database cannot be used/s);
    } finally {
      await r.kill();
    }
  });

  it('with --log-format json, says every event as one JSON line on stderr, a refusal too', async () => {
    const url = await db.freshDatabase('jsonlog');
    const r = spawnMws(['serve', '--config', configFor(url), '--log-format', 'json'], { MWS_STATE_KEY: '' });
    try {
      await waitForOutput(r, /listening on http/, 'mws serve --log-format json');
      await until(() => r.stderr().includes('"listening on'), 'the listening event on stderr');
    } finally {
      await r.kill();
    }
    const lines = r.stderr().trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as { ts: string; level: string; msg: string; pid: number });
    expect(events.some((e) => e.level === 'warn' && /No sealing key is set/.test(e.msg))).toBe(true);
    expect(events.some((e) => e.level === 'info' && /^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(e.msg))).toBe(true);
    expect(events.some((e) => e.msg === 'SIGTERM received, stopping.')).toBe(true);
    for (const e of events) expect(Number.isNaN(Date.parse(e.ts))).toBe(false);

    const dead = spawnMws(['serve', '--config', configFor(`postgres://u:p@127.0.0.1:${await deadPort()}/x`), '--log-format', 'json']);
    expect(await exited(dead, 'mws serve --log-format json with a dead database')).toBe(1);
    const refusal = JSON.parse(dead.stderr().trim()) as { level: string; msg: string };
    expect(refusal).toMatchObject({ level: 'warn' });
    expect(refusal.msg).toMatch(/cannot be reached now/);
  });
});
