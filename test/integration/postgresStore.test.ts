// What only the PostgreSQL adapter has to keep: values sealed at rest, a wrong key said in a sentence,
// replicas hearing each other's changes, migrations applied once by replicas starting together, and a
// database that goes away answered with `unavailable` in seconds, not a hang.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MwsError } from '../../src-main/core/errors.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import type { StoreChange } from '../../src-main/core/statestore/port.js';
import { checkSealingKey, openPostgresStore, type PostgresStateStore } from '../../src-main/core/statestore/postgres/store.js';
import { MIGRATIONS } from '../../src-main/core/statestore/postgres/migrations.js';
import { loadSealingKey, parseKey, type SealingKey } from '../../src-main/core/statestore/seal.js';
import { emptyAgentState } from '../../src-main/core/workingset/types.js';
import { UsageStore } from '../../src-main/core/usage/usageStore.js';
import { tempDir } from '../helpers/app.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { until, withDeadline } from '../helpers/wait.js';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => {
  await db?.stop();
});

const newKey = () => parseKey(randomBytes(32).toString('base64'), 'the test');
const open: PostgresStateStore[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((s) => s.close()));
});

async function store(
  url: string,
  key: () => SealingKey,
  deadlines?: { connectMs?: number; statementMs?: number; queryMs?: number; settleMs?: number },
) {
  const s = await openPostgresStore({ url, log: new MemoryLogger(), key, ...(deadlines ? { deadlines } : {}) });
  open.push(s);
  return s;
}

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return (await c.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

async function refusal(p: Promise<unknown>): Promise<MwsError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MwsError);
    return err as MwsError;
  }
  throw new Error('expected a refusal');
}

describe('PostgreSQL state store', () => {
  it('keeps secrets and sign-ins sealed in the database: neither the value nor the key is stored', async () => {
    const url = await db.freshDatabase('sealed');
    const key = newKey();
    const s = await store(url, () => key);
    await s.secrets.set('gh.token', 'ghp_plaintext_value');
    await s.oauth.set('gh', {
      serverUrl: 'https://x/mcp',
      tokens: { access_token: 'at_plaintext', token_type: 'Bearer', refresh_token: 'rt_plaintext' },
    });
    const dump = JSON.stringify([...(await rows(url, 'SELECT * FROM mws_secrets')), ...(await rows(url, 'SELECT * FROM mws_oauth'))]);
    expect(dump).not.toMatch(/plaintext/);
    expect(dump).not.toContain(key.bytes.toString('base64'));
    expect(dump).toContain(`v1.${key.id}.`);
  });

  it('a replica with another key gets a sentence, at start and at each read, never a wrong value; one with none is told what to set', async () => {
    const url = await db.freshDatabase('wrongkey');
    const a = await store(url, newKey);
    await a.secrets.set('gh.token', 'v');
    const other = newKey();
    const b = await store(url, () => other);
    const atStart = await refusal(checkSealingKey(b, other));
    expect(atStart.code).toBe('state_key');
    expect(atStart.message).toMatch(/not the one the database's secrets and sign-ins were sealed with/);
    const atRead = await refusal(b.secrets.get('gh.token'));
    expect(atRead.message).toMatch(/sealed with another key .* same MWS_STATE_KEY/);
    const c = await store(url, () => loadSealingKey({}));
    expect((await refusal(c.secrets.get('gh.token'))).message).toMatch(/No sealing key is set/);
    // The config and the working sets need no key.
    await c.config.write({ pins: [] }, null);
  });

  it('replicas hear each other: a config edit and a working-set save on one reach the other within a second', async () => {
    const url = await db.freshDatabase('notify');
    const key = newKey();
    const a = await store(url, () => key);
    const b = await store(url, () => key);
    const heard: Array<StoreChange & { at: number }> = [];
    b.onChange((c) => heard.push({ ...c, at: Date.now() }));
    const mine: StoreChange[] = [];
    a.onChange((c) => mine.push(c));
    const t0 = Date.now();
    const v = await a.config.write({ pins: ['x'] }, null);
    await a.agents.save('ci', emptyAgentState());
    await until(() => heard.length >= 2, 'replica B to hear both changes', 5000);
    expect(heard.map(({ at: _at, ...c }) => c)).toEqual([
      { kind: 'config', version: v },
      { kind: 'agent', agent: 'ci' },
    ]);
    expect(Math.max(...heard.map((h) => h.at)) - t0).toBeLessThan(1000);
    // A replica does not hear its own changes back.
    expect(mine).toEqual([]);
  });

  it('replicas starting together apply each migration exactly once', async () => {
    const url = await db.freshDatabase('migrate');
    await Promise.all([1, 2, 3, 4].map(() => store(url, newKey)));
    const applied = await rows(url, 'SELECT version, count(*)::int AS n FROM mws_migrations GROUP BY version');
    expect(applied.sort((x, y) => Number(x.version) - Number(y.version))).toEqual(MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
  });

  it('a database that goes away: changes are refused with `unavailable` within the deadlines, calls wait and are written when it is back', async () => {
    const url = await db.freshDatabase('down');
    const key = newKey();
    const s = await store(url, () => key, { connectMs: 1000, statementMs: 2000, queryMs: 2500 });
    const v = await s.config.write({ pins: [] }, null);
    await db.pause();
    try {
      const t0 = Date.now();
      const e = await withDeadline(refusal(s.config.write({ pins: ['y'] }, v)), 'the refused config write', 10_000);
      expect(e.code).toBe('unavailable');
      expect(e.message).toMatch(/cannot be reached now .* nothing changed/);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect((await refusal(s.agents.save('ci', emptyAgentState()))).code).toBe('unavailable');
      expect((await refusal(s.check())).code).toBe('unavailable');
      s.calls.call({ ts: new Date().toISOString(), agent: 'ci', tool: 'v__t', via: 'direct', ok: true, ms: 1, client: 'c', session: null });
      expect((await refusal(s.calls.flush())).code).toBe('unavailable');
    } finally {
      await db.resume();
    }
    await until(
      async () => (await s.calls.recent()).length === 1,
      'the waiting call record to be written once the database is back',
      10_000,
    );
    expect(s.calls.droppedRecords()).toBe(0);
    await s.config.write({ pins: ['z'] }, v);
    await until(() => s.listening(), 'the change feed to reconnect', 15_000);
  });

  it('one replica leads the fleet at a time; when it goes, the next to ask leads', async () => {
    const url = await db.freshDatabase('leader');
    const [a, b, c] = await Promise.all([store(url, newKey), store(url, newKey), store(url, newKey)]);
    expect(await a.leader!()).toBe(true);
    expect(await b.leader!()).toBe(false);
    expect(await c.leader!()).toBe(false);
    expect(await a.leader!()).toBe(true);
    await a.close();
    await until(async () => (await b.leader!()) || (await c.leader!()), 'another replica to lead once the leader is gone', 5000);
    expect([await b.leader!(), await c.leader!()].filter(Boolean)).toHaveLength(1);
  });

  it("usage counts every replica's calls once, from the shared log, across restarts of the reader", async () => {
    const url = await db.freshDatabase('usage');
    const key = newKey();
    const a = await store(url, () => key, { settleMs: 0 });
    const b = await store(url, () => key, { settleMs: 0 });
    const call = (tool: string, ms: number) => ({
      ts: new Date(1_800_000_000_000 + ms).toISOString(),
      agent: 'ci',
      tool,
      via: 'direct' as const,
      ok: true,
      ms: 1,
      client: 'c',
      session: `s${ms}`,
    });
    a.calls.call(call('v__one', 1));
    b.calls.call(call('v__one', 2));
    b.calls.search({ ts: new Date(1_800_000_000_003).toISOString(), event: 'search', agent: 'ci', bytes: 1, results: 1, client: 'c' });
    await Promise.all([a.calls.flush(), b.calls.flush()]);
    const dir = tempDir('mws-usage-');
    const since = (after: number, limit: number) => a.calls.since!(after, limit);
    const u = new UsageStore(dir, new MemoryLogger(), { since });
    await u.load();
    expect((await u.ingestCallLog()).map((x) => x.tool)).toEqual(['v__one']);
    expect(u.tallies('ci')).toEqual({ v__one: { ok: 2, failed: 0 } });
    await u.save();
    a.calls.call(call('v__two', 4));
    await a.calls.flush();
    const again = new UsageStore(dir, new MemoryLogger(), { since });
    await again.load();
    await again.ingestCallLog();
    expect(again.tallies('ci')).toEqual({ v__one: { ok: 2, failed: 0 }, v__two: { ok: 1, failed: 0 } });
    // A record inserted within the settle time is left for the next read.
    const settling = await store(url, () => key);
    expect(await settling.calls.since!(0, 10)).toEqual([]);
  });

  it("a working set saved from an older read is refused as a conflict, never written over another replica's save", async () => {
    const url = await db.freshDatabase('agentversion');
    const key = newKey();
    const a = await store(url, () => key);
    const b = await store(url, () => key);
    await a.agents.load('ci');
    await b.agents.load('ci');
    const one = { vendor: 'v', promotedBy: 'agent' as const, promotedAt: 1, lastUsedAt: null };
    await a.agents.save('ci', { ...emptyAgentState(), tools: { v__a: one } });
    const e = await refusal(b.agents.save('ci', { ...emptyAgentState(), tools: { v__b: one } }));
    expect(e.code).toBe('conflict');
    expect(e.message).toMatch(/changed by another replica at the same moment/);
    const fresh = await b.agents.load('ci');
    await b.agents.save('ci', { ...fresh, tools: { ...fresh.tools, v__b: one } });
    expect(Object.keys((await a.agents.load('ci')).tools).sort()).toEqual(['v__a', 'v__b']);
  });

  it('a statement held up by the database (a row locked mid-transaction) is cancelled at the deadline: unavailable, nothing changed', async () => {
    const url = await db.freshDatabase('stalled');
    const key = newKey();
    const s = await store(url, () => key, { statementMs: 500, queryMs: 1500 });
    const v = await s.config.write({ pins: [] }, null);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM mws_config WHERE id = 1 FOR UPDATE');
      const t0 = Date.now();
      const e = await withDeadline(refusal(s.config.write({ pins: ['late'] }, v)), 'the held-up write to be refused', 10_000);
      expect(e.code).toBe('unavailable');
      expect(Date.now() - t0).toBeLessThan(3000);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    expect((await s.config.read())?.raw).toEqual({ pins: [] });
  });
});
