// One conformance suite of the state port, run against both adapters: the files of a state folder and
// PostgreSQL (a real server started by the test). What one adapter promises, the other keeps.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MwsError } from '../../src-main/core/errors.js';
import { silentLogger } from '../../src-main/core/log.js';
import { filesStateStore } from '../../src-main/core/statestore/files.js';
import type { StateStore } from '../../src-main/core/statestore/port.js';
import { openPostgresStore } from '../../src-main/core/statestore/postgres/store.js';
import { parseKey } from '../../src-main/core/statestore/seal.js';
import { emptyAgentState, type AgentState } from '../../src-main/core/workingset/types.js';
import type { CallRecord } from '../../src-main/core/usage/callLog.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => {
  await db?.stop();
});

const key = parseKey(randomBytes(32).toString('base64'), 'the test');
const open: StateStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((s) => s.close()));
  await Promise.allSettled(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const adapters: Record<string, () => Promise<StateStore>> = {
  files: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mws-port-'));
    dirs.push(dir);
    const s = filesStateStore({ stateDir: join(dir, 'state'), configPath: join(dir, 'config.json'), log: silentLogger, now: Date.now });
    open.push(s);
    return s;
  },
  postgres: async () => {
    const s = await openPostgresStore({ url: await db.freshDatabase('port'), log: silentLogger, key: () => key });
    open.push(s);
    return s;
  },
};

const call = (agent: string, tool: string, ts: string): CallRecord => ({
  ts,
  agent,
  tool,
  via: 'direct',
  ok: true,
  ms: 3,
  client: 'test',
  session: null,
  upstream: 'v',
});

async function code(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(MwsError);
    return (err as MwsError).code;
  }
}

describe.each(Object.keys(adapters))('state port conformance: %s', (name) => {
  const make = adapters[name]!;

  it('config: nothing stored, then versions; an edit against an older version is refused as a conflict and nothing is written', async () => {
    const s = await make();
    expect(await s.config.read()).toBeUndefined();
    const v1 = await s.config.write({ upstreams: {}, pins: ['a'] }, null);
    expect(await s.config.read()).toEqual({ raw: { upstreams: {}, pins: ['a'] }, version: v1 });
    expect(await code(s.config.write({ pins: ['x'] }, null))).toBe('conflict');
    const v2 = await s.config.write({ upstreams: {}, pins: ['b'] }, v1);
    expect(v2).not.toBe(v1);
    expect(await code(s.config.write({ pins: ['stale'] }, v1))).toBe('conflict');
    const after = await s.config.read();
    expect(after).toEqual({ raw: { upstreams: {}, pins: ['b'] }, version: v2 });
    try {
      await s.config.write({}, v1);
    } catch (err) {
      expect((err as Error).message).toMatch(/changed .* since this edit was made .*not saved/);
    }
  });

  it('agents: an unknown agent starts empty; a saved set loads back; history comes back in order', async () => {
    const s = await make();
    expect(await s.agents.load('ci')).toEqual(emptyAgentState());
    const st: AgentState = {
      tools: { v__read: { vendor: 'v', promotedBy: 'agent', promotedAt: 1000, lastUsedAt: null } },
      demotedAt: { v__old: 500 },
      approvals: { v__write: { hash: 'h1', at: 900 }, v__send: { hash: 'h2', at: 950, by: 'carol' } },
    };
    await s.agents.save('ci', st);
    expect(await s.agents.load('ci')).toEqual(st);
    expect(await s.agents.load('other')).toEqual(emptyAgentState());
    s.agents.appendHistory('ci', [{ ts: '2026-01-01T00:00:00.000Z', tool: 'v__read', action: 'promote', cause: 'agent', vendor: 'v' }]);
    s.agents.appendHistory('ci', [
      { ts: '2026-01-02T00:00:00.000Z', tool: 'v__read', action: 'demote', cause: 'idle' },
      { ts: '2026-01-02T01:00:00.000Z', tool: 'v__y', action: 'promote', cause: 'user', by: 'ana@example.com', vendor: 'v' },
    ]);
    s.agents.appendHistory('other', [{ ts: '2026-01-03T00:00:00.000Z', tool: 'v__x', action: 'promote', cause: 'user' }]);
    expect(await s.agents.readHistory('ci')).toEqual([
      { ts: '2026-01-01T00:00:00.000Z', tool: 'v__read', action: 'promote', cause: 'agent' },
      { ts: '2026-01-02T00:00:00.000Z', tool: 'v__read', action: 'demote', cause: 'idle' },
      { ts: '2026-01-02T01:00:00.000Z', tool: 'v__y', action: 'promote', cause: 'user', by: 'ana@example.com' },
    ]);
    expect(await s.agents.readHistory('nobody')).toEqual([]);
  });

  it('calls: records come back newest first, calls only, by agent and bounded; nothing is dropped', async () => {
    const s = await make();
    s.calls.call(call('a', 'v__one', '2026-01-01T00:00:01.000Z'));
    s.calls.search({ ts: '2026-01-01T00:00:02.000Z', event: 'search', agent: 'a', bytes: 10, results: 2, client: 'test' });
    s.calls.call(call('b', 'v__two', '2026-01-01T00:00:03.000Z'));
    s.calls.call(call('a', 'v__three', '2026-01-01T00:00:04.000Z'));
    await s.calls.flush();
    expect((await s.calls.recent()).map((e) => e.tool)).toEqual(['v__three', 'v__two', 'v__one']);
    expect((await s.calls.recent({ agent: 'a' })).map((e) => e.tool)).toEqual(['v__three', 'v__one']);
    expect((await s.calls.recent({ limit: 1 })).map((e) => e.tool)).toEqual(['v__three']);
    expect((await s.calls.recent())[0]).toMatchObject({ agent: 'a', upstream: 'v', via: 'direct', ok: true, ms: 3, client: 'test' });
    expect(s.calls.droppedRecords()).toBe(0);
  });

  it('secrets: set, get, list sorted, delete; a bad name is refused', async () => {
    const s = await make();
    expect(await s.secrets.get('gh.token')).toBeUndefined();
    await s.secrets.set('gh.token', 'ghp_secret value ✓');
    await s.secrets.set('a/b', 'x');
    expect(await s.secrets.get('gh.token')).toBe('ghp_secret value ✓');
    expect(await s.secrets.list()).toEqual(['a/b', 'gh.token']);
    await s.secrets.set('gh.token', 'rotated');
    expect(await s.secrets.get('gh.token')).toBe('rotated');
    expect(await s.secrets.delete('gh.token')).toBe(true);
    expect(await s.secrets.delete('gh.token')).toBe(false);
    expect(await s.secrets.list()).toEqual(['a/b']);
    expect(await code(s.secrets.set('bad name!', 'x'))).toBe('usage');
  });

  it('sign-ins: a record per upstream, replaced whole, deleted', async () => {
    const s = await make();
    expect(await s.oauth.get('gh')).toBeUndefined();
    const rec = {
      serverUrl: 'https://mcp.example/mcp',
      tokens: { access_token: 'at', token_type: 'Bearer', refresh_token: 'rt', expiresAt: 5 },
    };
    await s.oauth.set('gh', rec);
    expect(await s.oauth.get('gh')).toEqual(rec);
    await s.oauth.set('gh', { serverUrl: 'https://mcp.example/mcp' });
    expect(await s.oauth.get('gh')).toEqual({ serverUrl: 'https://mcp.example/mcp' });
    await s.oauth.delete('gh');
    expect(await s.oauth.get('gh')).toBeUndefined();
  });

  it('answers a health check and closes twice without error', async () => {
    const s = await make();
    await s.check();
    await s.close();
    await s.close();
  });
});
