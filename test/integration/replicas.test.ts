// Two `mws serve` replicas on one PostgreSQL (started by the test) act as one toolbox: the config
// comes from the database and edits on one are applied on the other, a working-set change on one
// reaches the other's clients as tools/list_changed within a second, an edit made from an older
// config version is refused with 409, and every call is recorded in the shared database.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';
import { runMws, spawnMws, stdioFixture, type Running, listeningBase } from '../helpers/processes.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { until, withDeadline } from '../helpers/wait.js';

type Replica = { proc: Running; base: string; token: string; stateDir: string };

let db: TestPostgres;
let url: string;
const env = { MWS_STATE_KEY: randomBytes(32).toString('base64') };
const replicas: Replica[] = [];
const clients: TestClient[] = [];

async function startReplica(name: string, shared: Record<string, unknown> = {}): Promise<Replica> {
  const dir = tempDir(`mws-replica-${name}-`);
  const stateDir = join(dir, 'state');
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ listen: { port: 0 }, stateDir, store: { postgres: { url } }, ...shared }));
  const proc = spawnMws(['serve', '--config', cfg], env);
  const base = await listeningBase(proc, `replica ${name}`);
  const r = { proc, base, token: readFileSync(join(stateDir, 'control-token'), 'utf8').trim(), stateDir };
  replicas.push(r);
  return r;
}

async function control(r: Replica, method: string, args: unknown = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${r.base}/control/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${r.token}`, ...headers },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(15_000),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever result a control method answers
  return { status: res.status, body: (await res.json()) as { ok: boolean; result?: any; error?: { code: string; message: string } } };
}

let a: Replica;
let b: Replica;
beforeAll(async () => {
  db = await startPostgres();
  url = await db.freshDatabase('replicas');
  // A brings its upstream into the empty database; B's own file says only where it listens.
  a = await startReplica('a', { upstreams: { fx: stdioFixture() } });
  b = await startReplica('b');
  await until(
    async () => (await control(b, 'status')).body.result?.toolboxSize > 0,
    'replica B to load the upstream from the shared config',
  );
});

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(replicas.map((r) => r.proc.kill()));
  await db?.stop();
});

describe('two replicas on one PostgreSQL', () => {
  it('B serves the upstreams that A brought into the empty database', async () => {
    const st = (await control(b, 'status')).body.result;
    expect(st.upstreams.map((u: { vendor: string }) => u.vendor)).toEqual(['fx']);
    expect(typeof st.configVersion).toBe('string');
  });

  it("a promotion on A reaches B's client as tools/list_changed within a second", async () => {
    const c = await connectClient(`${b.base}/mcp`, 'auto', 'client-on-b');
    clients.push(c);
    expect(c.changes.length === 0 && (await c.client.listTools()).tools.some((t) => t.name === 'fx__echo')).toBe(false);
    const t0 = Date.now();
    const r = await control(a, 'promote', { agent: 'default', tool: 'fx__echo' });
    expect(r.body.ok).toBe(true);
    await c.until((tools) => tools.some((t) => t.name === 'fx__echo'), "B's client to list fx__echo", 5000);
    const ms = Date.now() - t0;
    expect(ms).toBeLessThan(1000);
    // And the call through B works, and is recorded in the shared database.
    const res = await c.client.callTool({ name: 'fx__echo', arguments: { text: 'hi from b' } });
    expect(textOf(res)).toContain('hi from b');
    await until(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query("SELECT 1 FROM mws_calls WHERE record->>'tool' = 'fx__echo' AND kind = 'call'")).rowCount === 1;
      } finally {
        await client.end();
      }
    }, 'the call through B to be in mws_calls');
    // A's activity log is the fleet's: it shows the call made through B.
    await until(
      async () =>
        ((await control(a, 'activity', {})).body.result as Array<{ tool: string; client: string }>).some((e) => e.tool === 'fx__echo'),
      "A's activity log to show the call made through B",
    );
  });

  it('a config edit on A is applied on B; an edit on B made from the older version is refused with 409', async () => {
    const before = (await control(b, 'status')).body.result.configVersion as string;
    expect((await control(a, 'createAgent', { id: 'ci', name: 'CI runner' })).body.ok).toBe(true);
    await until(
      async () => (await control(b, 'status')).body.result.agents.some((x: { id: string }) => x.id === 'ci'),
      'B to know the agent made on A',
    );
    const stale = await control(b, 'updateAgent', { id: 'ci', name: 'renamed on B' }, { 'if-match': `"${before}"` });
    expect(stale.status).toBe(409);
    expect(stale.body.error?.code).toBe('conflict');
    expect(stale.body.error?.message).toMatch(/changed .* since this edit was made from it, so it was not saved/);
    // Made from the version in force, it is saved, and A sees it.
    const now = (await control(b, 'status')).body.result.configVersion as string;
    expect((await control(b, 'updateAgent', { id: 'ci', name: 'renamed on B' }, { 'if-match': now })).status).toBe(200);
    await until(
      async () => (await control(a, 'status')).body.result.agents.find((x: { id: string }) => x.id === 'ci')?.name === 'renamed on B',
      'A to see the rename made on B',
    );
  });

  it('promotions made on both replicas at the same moment are both kept', async () => {
    const [onA, onB] = await Promise.all([
      control(a, 'promote', { agent: 'default', tool: 'fx__add' }),
      control(b, 'promote', { agent: 'default', tool: 'fx__slow' }),
    ]);
    expect([onA.status, onB.status]).toEqual([200, 200]);
    for (const r of [a, b]) {
      await until(
        async () => {
          const tools = ((await control(r, 'workingSet', { agent: 'default' })).body.result as Array<{ tool: string }>).map((t) => t.tool);
          return ['fx__add', 'fx__slow'].every((t) => tools.includes(t)) && tools;
        },
        `replica ${r === a ? 'A' : 'B'} to hold both promotions`,
      );
    }
    // Back to the one promotion the next tests expect, seen on B too.
    for (const tool of ['fx__add', 'fx__slow']) expect((await control(a, 'demote', { agent: 'default', tool })).body.ok).toBe(true);
    await until(async () => {
      const tools = ((await control(b, 'workingSet', { agent: 'default' })).body.result as Array<{ tool: string }>).map((t) => t.tool);
      return !tools.includes('fx__add') && !tools.includes('fx__slow');
    }, 'B to hear both demotions').catch((err: Error) => {
      throw new Error(`${err.message}\nB printed:\n${b.proc.stderr().slice(-3000)}`);
    });
  });

  it("a call waiting for approval on B is released by 'always allow' given on A", async () => {
    const c = await connectClient(`${b.base}/mcp`, 'auto', 'client-on-b-approval');
    clients.push(c);
    const waiting = c.client.callTool({ name: 'call_tool', arguments: { name: 'fx__is_error', arguments: {} } });
    await until(
      async () =>
        ((await control(b, 'pendingApprovals', {})).body.result as Array<{ tool: string }>).some((p) => p.tool === 'fx__is_error'),
      'the call to wait for approval on B',
    );
    // A holds nothing waiting; its answer is the grant, which B reads back with the agent's state.
    const onA = await control(a, 'approve', { agent: 'default', tool: 'fx__is_error' });
    expect(onA.body.result).toMatchObject({ tool: 'fx__is_error', remembered: true });
    const res = await withDeadline(waiting, 'the call on B to be released by the grant on A', 10_000);
    // It ran: the upstream's own answer, not the approval's.
    expect(textOf(res as { content?: unknown })).toContain('tool-level failure');
    expect(((await control(b, 'pendingApprovals', {})).body.result as unknown[]).length).toBe(0);
    await control(a, 'revokeGrant', { agent: 'default', tool: 'fx__is_error' });
  });

  it('a CLI command with no instance of its own works on the fleet: `mws promote` reaches every replica', async () => {
    const dir = tempDir('mws-cli-team-');
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ listen: { port: 0 }, stateDir: join(dir, 'state'), store: { postgres: { url } } }));
    const r = await runMws(['promote', 'fx__slow', '--agent', 'default', '--config', cfg], env);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    for (const rep of [a, b])
      await until(
        async () => {
          const tools = ((await control(rep, 'workingSet', { agent: 'default' })).body.result as Array<{ tool: string }>).map(
            (t) => t.tool,
          );
          return tools.includes('fx__slow');
        },
        `replica ${rep === a ? 'A' : 'B'} to hold the tool promoted from the CLI`,
      );
    // And `mws activity` there reads the fleet's log.
    const act = await runMws(['activity', '--json', '--config', cfg], env);
    expect((JSON.parse(act.out) as Array<{ tool: string }>).some((e) => e.tool === 'fx__echo')).toBe(true);
    expect((await control(a, 'demote', { agent: 'default', tool: 'fx__slow' })).body.ok).toBe(true);
    await until(async () => {
      const tools = ((await control(b, 'workingSet', { agent: 'default' })).body.result as Array<{ tool: string }>).map((t) => t.tool);
      return !tools.includes('fx__slow');
    }, 'B to hear the demotion');
  });

  it('answers /healthz and /readyz without a credential, and /metrics only with the control token', async () => {
    const alive = await fetch(`${b.base}/healthz`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ alive: true });
    const ready = await fetch(`${b.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, database: 'ok', upstreams: { up: 1, down: 0 } });
    expect((await fetch(`${b.base}/metrics`)).status).toBe(401);
    const m = await fetch(`${b.base}/metrics`, { headers: { authorization: `Bearer ${b.token}` } });
    expect(m.status).toBe(200);
    const text = await m.text();
    expect(text).toMatch(/mws_requests_total\{method="tools\/call",agent="default",ok="true"\} 1/);
    expect(text).toMatch(/mws_upstream_up\{upstream="fx",status="up"\} 1/);
    expect(text).toMatch(/mws_working_set_size\{agent="default"\} 1/);
    expect(text).toMatch(/mws_db_pool_connections\{state="total"\} \d+/);
    expect(text).toMatch(/mws_db_query_duration_seconds_count\{ok="true"\} [1-9]/);
    expect(text).toMatch(/mws_approvals_waiting 0/);
    expect(text).toMatch(/mws_process_process_resident_memory_bytes \d+/);
  });

  it('what a search on A taught is ranked on B and on a replica started after it; a forget on B reaches both', async () => {
    const c = await connectClient(`${a.base}/mcp`, 'auto', 'client-learning-on-a');
    clients.push(c);
    await c.client.callTool({ name: 'search_tools', arguments: { query: 'echo back my sentence verbatim' } });
    await c.client.callTool({ name: 'call_tool', arguments: { name: 'fx__echo', arguments: { text: 'learn' } } });
    const words = async (r: Replica) =>
      ((await control(r, 'learnedWords', { tool: 'fx__echo' })).body.result?.tools?.[0]?.words ?? []).map((w: { word: string }) => w.word);
    await until(async () => (await words(a)).includes('verbatim'), 'A to learn');
    await until(async () => (await words(b)).includes('verbatim'), "B to rank fx__echo by the words A's search taught");
    const late = await startReplica('late');
    await until(async () => (await words(late)).includes('verbatim'), 'a replica started later to read what the fleet learned');
    expect((await control(b, 'forgetLearned', { tool: 'fx__echo', word: 'verbatim' })).body.ok).toBe(true);
    await until(
      async () => !(await words(a)).includes('verbatim') && !(await words(late)).includes('verbatim'),
      'the forget on B to reach A and the late replica',
    );
    expect(await words(a)).toContain('sentence');
    await late.proc.kill();
  });

  it('with the database down: not ready, a state change is refused with 503 and a sentence, listing goes on; all recovers without a restart', async () => {
    const c = await connectClient(`${b.base}/mcp`, 'auto', 'client-on-b-while-down');
    clients.push(c);
    await db.pause();
    try {
      const ready = await fetch(`${b.base}/readyz`, { signal: AbortSignal.timeout(15_000) });
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ready: false, database: 'unreachable', reason: 'the state database cannot be reached' });
      const t0 = Date.now();
      const edit = await control(b, 'createAgent', { id: 'while-down' });
      expect(edit.status).toBe(503);
      expect(edit.body.error?.code).toBe('unavailable');
      expect(edit.body.error?.message).toMatch(/cannot be reached now .* nothing changed/);
      const promote = await control(b, 'promote', { agent: 'default', tool: 'fx__add' });
      expect(promote.status).toBe(503);
      expect(Date.now() - t0).toBeLessThan(10_000);
      // The meta-tools answer a tool error with the sentence, not a hang.
      const viaMeta = await c.client.callTool({ name: 'promote', arguments: { name: 'fx__add' } });
      expect(viaMeta.isError).toBe(true);
      expect(textOf(viaMeta)).toMatch(/^unavailable: The state database .* cannot be reached now/);
      // Listing and calls go on from the working set this replica holds.
      const tools = (await c.client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('fx__echo');
      expect(tools).not.toContain('fx__add');
      expect(textOf(await c.client.callTool({ name: 'fx__echo', arguments: { text: 'still here' } }))).toContain('still here');
    } finally {
      await db.resume();
    }
    await until(async () => (await fetch(`${b.base}/readyz`)).status === 200, 'B to be ready again once the database is back');
    expect((await control(b, 'createAgent', { id: 'after-outage' })).status).toBe(200);
    await until(
      async () => (await control(a, 'status')).body.result.agents.some((x: { id: string }) => x.id === 'after-outage'),
      'A to hear of the agent made on B after the outage',
    );
  });
});
