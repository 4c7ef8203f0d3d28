// `mws migrate-state --to postgres://…` on a real state folder, with working sets, history, grants,
// calls (rotated too), searches, secrets and sign-ins: every record arrives, sealed where it must be,
// and a second run into the same database is refused before it copies anything twice.
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src-main/core/log.js';
import { filesStateStore } from '../../src-main/core/statestore/files.js';
import { openPostgresStore } from '../../src-main/core/statestore/postgres/store.js';
import { parseKey } from '../../src-main/core/statestore/seal.js';
import type { AgentState } from '../../src-main/core/workingset/types.js';
import { tempDir } from '../helpers/app.js';
import { runMws } from '../helpers/processes.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';

let db: TestPostgres;
beforeAll(async () => {
  db = await startPostgres();
});
afterAll(async () => {
  await db?.stop();
});

const keyText = randomBytes(32).toString('base64');
const key = parseKey(keyText, 'the test');

const ciState: AgentState = {
  tools: {
    gh__list_issues: { vendor: 'gh', promotedBy: 'agent', promotedAt: 1_700_000_000_000, lastUsedAt: 1_700_000_100_000 },
    gh__create_issue: { vendor: 'gh', promotedBy: 'user', promotedAt: 1_700_000_200_000, lastUsedAt: null, pinned: 'config' },
  },
  demotedAt: { gh__old: 1_699_000_000_000 },
  approvals: { gh__create_issue: { hash: 'sha256:abc', at: 1_700_000_300_000 } },
};
const signIn = {
  serverUrl: 'https://mcp.example/mcp',
  tokens: { access_token: 'at-123', token_type: 'Bearer', refresh_token: 'rt-456', expiresAt: 1_800_000_000_000 },
  client: { info: { client_id: 'cid' }, redirectUri: 'http://127.0.0.1:7801/oauth/callback' },
  account: 'dev@example.com',
};

async function sql(url: string, q: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(q)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

/** A state folder as a run leaves it, written through the files adapter the app itself uses. */
async function stateFolder(): Promise<{ cfg: string; stateDir: string; raw: Record<string, unknown> }> {
  const dir = tempDir('mws-move-');
  const stateDir = join(dir, 'state');
  const cfg = join(dir, 'config.json');
  const raw = {
    stateDir,
    listen: { port: 7801 },
    upstreams: { gh: { url: 'https://mcp.example/mcp', headers: { Authorization: '${secret:upstreams.gh.headers.Authorization}' } } },
    agents: [{ id: 'ci', name: 'CI', token: 'agent-token-ci-0123456789abcdef' }],
    pins: ['gh__create_issue'],
  };
  writeFileSync(cfg, JSON.stringify(raw, null, 2));
  const files = filesStateStore({ stateDir, configPath: cfg, log: silentLogger, now: Date.now });
  await files.agents.save('ci', ciState);
  files.agents.appendHistory('ci', [
    { ts: '2026-11-01T10:00:00.000Z', tool: 'gh__list_issues', action: 'promote', cause: 'agent', vendor: 'gh' },
    { ts: '2026-11-02T10:00:00.000Z', tool: 'gh__old', action: 'demote', cause: 'idle', vendor: 'gh' },
  ]);
  files.agents.appendHistory('default', [
    { ts: '2026-11-03T10:00:00.000Z', tool: 'gh__x', action: 'promote', cause: 'usage', vendor: 'gh' },
  ]);
  await files.agents.save('default', {
    tools: { gh__x: { vendor: 'gh', promotedBy: 'usage', promotedAt: Date.parse('2026-11-03T10:00:00.000Z'), lastUsedAt: null } },
    demotedAt: {},
    approvals: {},
  });
  const call = (tool: string, ts: string) => ({
    ts,
    agent: 'ci',
    tool,
    via: 'direct' as const,
    ok: true,
    ms: 12,
    client: 'claude-code',
    session: 's1',
    upstream: 'gh',
  });
  files.calls.call(call('gh__list_issues', '2026-11-05T00:00:01.000Z'));
  files.calls.search({ ts: '2026-11-05T00:00:02.000Z', event: 'search', agent: 'ci', bytes: 900, results: 4, client: 'claude-code' });
  files.calls.call(call('gh__create_issue', '2026-11-05T00:00:03.000Z'));
  await files.secrets.set('upstreams.gh.headers.Authorization', 'Bearer ghp_plain_secret');
  await files.oauth.set('gh', signIn);
  await files.close();
  // A rotated log holds the older calls; a crash tore the current log's last line.
  writeFileSync(join(stateDir, 'calls.1.jsonl'), JSON.stringify(call('gh__list_issues', '2026-10-01T00:00:00.000Z')) + '\n');
  appendFileSync(join(stateDir, 'calls.jsonl'), '{"ts":"2026-11-05T00:00:04.000Z","agent":"ci","too');
  mkdirSync(join(stateDir, 'agents'), { recursive: true });
  // What search learned: two pairs of one agent (one a passed-over hit), and one that is no pair.
  writeFileSync(
    join(stateDir, 'learned.json'),
    JSON.stringify({
      version: 1,
      agents: {
        ci: [
          { q: 'open a ticket', t: 'gh__create_issue', ts: 1 },
          { q: 'open a ticket', t: 'gh__list_issues', ts: 1, neg: true },
          { q: 42, t: 'x', ts: 2 },
        ],
      },
    }),
  );
  return { cfg, stateDir, raw };
}

describe('mws migrate-state', () => {
  it('moves every record of a real state folder into an empty database, and refuses a second run', async () => {
    const url = await db.freshDatabase('move');
    const { cfg, raw } = await stateFolder();
    const r = await runMws(['migrate-state', '--to', url, '--config', cfg], { MWS_STATE_KEY: keyText });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /2 working sets, 3 history lines,\s+3 call records, 1 search record, 1 secret, 1 sign-in, 2 learned search pairs\.\s+1 damaged log line was left out/,
    );

    const s = await openPostgresStore({ url, log: silentLogger, key: () => key });
    try {
      const { stateDir: _s, listen: _l, ...shared } = raw;
      expect((await s.config.read())?.raw).toMatchObject(shared);
      expect((await s.config.read())?.raw).not.toHaveProperty('listen');
      expect(await s.agents.load('ci')).toEqual(ciState);
      expect(await s.agents.readHistory('ci')).toEqual([
        { ts: '2026-11-01T10:00:00.000Z', tool: 'gh__list_issues', action: 'promote', cause: 'agent' },
        { ts: '2026-11-02T10:00:00.000Z', tool: 'gh__old', action: 'demote', cause: 'idle' },
      ]);
      expect((await s.agents.readHistory('default')).map((h) => h.tool)).toEqual(['gh__x']);
      expect((await s.calls.recent()).map((c) => `${c.ts} ${c.tool}`)).toEqual([
        '2026-11-05T00:00:03.000Z gh__create_issue',
        '2026-11-05T00:00:01.000Z gh__list_issues',
        '2026-10-01T00:00:00.000Z gh__list_issues',
      ]);
      expect(await sql(url, 'SELECT kind, count(*)::int AS n FROM mws_calls GROUP BY kind ORDER BY kind')).toEqual([
        { kind: 'call', n: 3 },
        { kind: 'search', n: 1 },
      ]);
      expect((await s.learning!.since(0, 10)).map((e) => e.event)).toEqual([
        { agent: 'ci', pair: { q: 'open a ticket', t: 'gh__create_issue', ts: 1 } },
        { agent: 'ci', pair: { q: 'open a ticket', t: 'gh__list_issues', ts: 1, neg: true } },
      ]);
      expect(await s.secrets.get('upstreams.gh.headers.Authorization')).toBe('Bearer ghp_plain_secret');
      expect(await s.oauth.get('gh')).toEqual(signIn);
      const stored = JSON.stringify(await sql(url, 'SELECT * FROM mws_secrets UNION ALL SELECT * FROM mws_oauth'));
      expect(stored).not.toMatch(/ghp_plain_secret|at-123|rt-456/);
      expect((await sql(url, "SELECT entry->>'vendor' AS v FROM mws_agent_history WHERE agent = 'ci' ORDER BY id"))[0]).toEqual({
        v: 'gh',
      });
    } finally {
      await s.close();
    }

    const again = await runMws(['migrate-state', '--to', url, '--config', cfg], { MWS_STATE_KEY: keyText });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already holds a Working Set config .* nothing was copied/);
    expect(await sql(url, 'SELECT count(*)::int AS n FROM mws_calls')).toEqual([{ n: 4 }]);
  });
});
