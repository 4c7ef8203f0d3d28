// The PostgreSQL adapter of the state port. Every query has a deadline (the pool's connect time, the
// server's statement_timeout and a client-side query_timeout), so a database that is down or stalled
// answers `unavailable` within seconds and never holds a request. Secrets and sign-ins are sealed here
// (seal.ts) before they are sent; the key stays on the replica.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MwsError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { SECRET_NAME, type SecretStore } from '../../secrets/store.js';
import { agentStateSchema, fits } from '../../store/shapes.js';
import type { OAuthRecord, OAuthStore } from '../../upstream/oauth/store.js';
import type { ActivityEntry } from '../../usage/activityTypes.js';
import type { CallRecord, SearchRecord } from '../../usage/callLog.js';
import { agentStateFrom, emptyAgentState, type AgentState, type HistoryEntry } from '../../workingset/types.js';
import type { AgentStateStore } from '../../workingset/stateFiles.js';
import type { CallRecordStore, ConfigDocumentStore, Raw, StateStore, StoreChange, StoredConfig } from '../port.js';
import { configConflict } from '../../config/source.js';
import { unseal, seal, type SealingKey } from '../seal.js';
import { BatchWriter } from './batches.js';
import { dbError } from './errors.js';
import { migrate } from './migrations.js';
import { CHANNEL, ChangeListener } from './notify.js';
import { pgLearningFeed } from './learningFeed.js';

/** A new connection gives up after this long: a database that is down answers at once, a black hole does not. */
export const CONNECT_MS = 3000;
/** The server cancels any statement running longer; the state port's statements are single-row or small batches. */
export const STATEMENT_MS = 5000;
/** The client stops waiting a little after the server would have cancelled (a stalled network). */
export const QUERY_MS = 6000;
/**
 * Record ids are handed out at insert but become visible at commit, not always in id order: a reader of
 * the log takes only records inserted longer ago than any insert may take (the statement deadline,
 * twice over), so it never passes one that is still being committed.
 */
export const SETTLE_MS = 2 * STATEMENT_MS;
/** The advisory lock whose holder leads the fleet's working-set cycle (migrations use another). */
export const LEADER_LOCK_KEY = 73_460_113;
/** The class of the per-upstream advisory locks held around an OAuth refresh (the upstream's name hashed is the other half). */
export const OAUTH_LOCK_CLASS = 73_460_114;
/** How long a replica waits for another one's refresh of the same upstream before going on without refreshing. */
export const OAUTH_LOCK_WAIT_MS = 10_000;
/** A refresh holding the lock longer is cut off by the server (its session ends), so a stuck replica cannot hold it. */
export const OAUTH_LOCK_HOLD_MS = 30_000;
/** Connections per replica: requests wait for one only briefly, and the database's own limit is shared by the fleet. */
export const POOL_MAX = 8;

export type PostgresStoreOptions = {
  url: string;
  log: Logger;
  /** The sealing key, asked for only when a secret or sign-in is read or written (throws `state_key`). */
  key: () => SealingKey;
  /** Tests make the deadlines short. */
  deadlines?: { connectMs?: number; statementMs?: number; queryMs?: number; settleMs?: number };
};

const isAgentState = fits(agentStateSchema) as (v: unknown) => v is AgentState;

/** Where the database is, for sentences: host:port/database, never the password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured PostgreSQL';
  }
}

type Call = { kind: 'call' | 'search'; record: CallRecord | SearchRecord };
type HistoryRow = { agent: string; entry: HistoryEntry & { vendor?: string } };

export type PostgresStateStore = StateStore & { readonly pool: pg.Pool; readonly listening: () => boolean };

/** Connects, applies migrations (once across replicas), starts listening for other replicas' changes. */
export async function openPostgresStore(o: PostgresStoreOptions): Promise<PostgresStateStore> {
  const where = describeUrl(o.url);
  const connectMs = o.deadlines?.connectMs ?? CONNECT_MS;
  const clientConfig: pg.ClientConfig = {
    connectionString: o.url,
    connectionTimeoutMillis: connectMs,
    statement_timeout: o.deadlines?.statementMs ?? STATEMENT_MS,
    query_timeout: o.deadlines?.queryMs ?? QUERY_MS,
    application_name: 'mcp-working-set',
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...clientConfig, max: POOL_MAX, idleTimeoutMillis: 30_000 });
  const settleMs = o.deadlines?.settleMs ?? SETTLE_MS;
  // An idle connection the server dropped is reported here; the next query opens a new one.
  pool.on('error', (err) => o.log.warn(`a state database connection failed while idle (${err.message}); it is replaced.`));
  const origin = randomUUID();
  const listeners = new Set<(c: StoreChange) => void>();

  const timed = new Set<(seconds: number, ok: boolean) => void>();
  const q = async <R extends pg.QueryResultRow>(what: string, sql: string, params: unknown[] = []) => {
    const t0 = performance.now();
    let ok = false;
    try {
      const r = await pool.query<R>(sql, params);
      ok = true;
      return r;
    } catch (err) {
      throw dbError(err, what, where);
    } finally {
      const s = (performance.now() - t0) / 1000;
      timed.forEach((f) => f(s, ok));
    }
  };
  const notice = (change: StoreChange) => JSON.stringify({ ...change, origin });

  try {
    const client = await pool.connect();
    try {
      // Migrations may wait for another replica's lock and run longer than one request's statement.
      await client.query('SET statement_timeout = 0');
      await migrate(client);
      await client.query(`SET statement_timeout = ${Number(clientConfig.statement_timeout)}`);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw dbError(err, 'opening the state database', where);
  }

  const config: ConfigDocumentStore = {
    label: `the state database ${where}`,
    async read(): Promise<StoredConfig | undefined> {
      const r = await q<{ doc: Raw; version: string }>(
        'reading the config',
        'SELECT doc, version::text AS version FROM mws_config WHERE id = 1',
      );
      const row = r.rows[0];
      return row && { raw: row.doc, version: row.version };
    },
    async write(raw: Raw, expected: string | null): Promise<string> {
      // One statement: the row changes only at the expected version, and the notice goes out at commit.
      const r =
        expected === null
          ? await q<{ version: string }>(
              'saving the config',
              `WITH w AS (INSERT INTO mws_config (id, doc, version) VALUES (1, $1, 1) ON CONFLICT (id) DO NOTHING RETURNING version)
               SELECT version::text AS version, pg_notify('${CHANNEL}', json_build_object('kind', 'config', 'version', version::text, 'origin', $2::text)::text) FROM w`,
              [raw, origin],
            )
          : await q<{ version: string }>(
              'saving the config',
              `WITH w AS (UPDATE mws_config SET doc = $1, version = version + 1, updated_at = now() WHERE id = 1 AND version = $2::bigint RETURNING version)
               SELECT version::text AS version, pg_notify('${CHANNEL}', json_build_object('kind', 'config', 'version', version::text, 'origin', $3::text)::text) FROM w`,
              [raw, /^\d+$/.test(expected) ? expected : '-1', origin],
            );
      const v = r.rows[0]?.version;
      if (v === undefined) throw configConflict(`the state database ${where}`, { expected });
      return v;
    },
  };

  const history = new BatchWriter<HistoryRow>({
    what: 'working-set history lines',
    log: o.log,
    keyOf: (h) => h.agent,
    insert: async (batch) => {
      await pool.query('INSERT INTO mws_agent_history (agent, entry) SELECT a, e FROM unnest($1::text[], $2::jsonb[]) AS t(a, e)', [
        batch.map((h) => h.agent),
        batch.map((h) => JSON.stringify(h.entry)),
      ]);
    },
  });

  /** The version of each agent's row this process last read or wrote ('absent': none was there). */
  const versions = new Map<string, string>();
  const agentConflict = (agent: string) =>
    new MwsError(
      'conflict',
      `The working set of "${agent}" was changed by another replica at the same moment, so this change was not saved; try it again.`,
      { agent },
    );
  const agents: AgentStateStore = {
    async load(agent) {
      const r = await q<{ state: unknown; version: string }>(
        `reading the working set of "${agent}"`,
        'SELECT state, version::text AS version FROM mws_agent_state WHERE agent = $1',
        [agent],
      );
      const row = r.rows[0];
      versions.set(agent, row?.version ?? 'absent');
      const state = row?.state;
      if (state === undefined) return emptyAgentState();
      if (!isAgentState(state)) {
        o.log.warn(`agent "${agent}": the working set stored in the database does not have the expected shape; it starts empty.`);
        return emptyAgentState();
      }
      return agentStateFrom(state);
    },
    async save(agent, state) {
      const known = versions.get(agent);
      const what = `saving the working set of "${agent}"`;
      const notify = `SELECT version::text AS version, pg_notify('${CHANNEL}', $3) FROM w`;
      // Written only over the version this process read: a save made from an older read is a conflict.
      const r =
        known === undefined
          ? await q<{ version: string }>(
              what,
              `WITH w AS (INSERT INTO mws_agent_state (agent, state) VALUES ($1, $2) ON CONFLICT (agent) DO UPDATE SET state = EXCLUDED.state, version = mws_agent_state.version + 1, updated_at = now() RETURNING version) ${notify}`,
              [agent, state, notice({ kind: 'agent', agent })],
            )
          : known === 'absent'
            ? await q<{ version: string }>(
                what,
                `WITH w AS (INSERT INTO mws_agent_state (agent, state) VALUES ($1, $2) ON CONFLICT (agent) DO NOTHING RETURNING version) ${notify}`,
                [agent, state, notice({ kind: 'agent', agent })],
              )
            : await q<{ version: string }>(
                what,
                `WITH w AS (UPDATE mws_agent_state SET state = $2, version = version + 1, updated_at = now() WHERE agent = $1 AND version = $4::bigint RETURNING version) ${notify}`,
                [agent, state, notice({ kind: 'agent', agent }), known],
              );
      const v = r.rows[0]?.version;
      if (v === undefined) throw agentConflict(agent);
      versions.set(agent, v);
    },
    appendHistory(agent, entry, vendor) {
      history.push({ agent, entry: vendor ? { ...entry, vendor } : entry });
    },
    async readHistory(agent) {
      await history.flush().catch(() => {});
      const r = await q<{ entry: HistoryEntry }>(
        `reading the history of "${agent}"`,
        'SELECT entry FROM mws_agent_history WHERE agent = $1 ORDER BY id',
        [agent],
      );
      return r.rows.map(({ entry: e }) => ({
        ts: e.ts,
        tool: e.tool,
        action: e.action,
        cause: e.cause,
        ...(typeof e.by === 'string' ? { by: e.by } : {}),
      }));
    },
    async close() {
      const left = await history.close();
      if (left) o.log.warn(`${left} working-set history line(s) could not be written to the state database before stopping.`);
    },
  };

  const writer = new BatchWriter<Call>({
    what: 'call records',
    log: o.log,
    keyOf: (c) => c.record.agent,
    insert: async (batch) => {
      await pool.query(
        'INSERT INTO mws_calls (ts, agent, kind, record) SELECT t, a, k, r FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::jsonb[]) AS x(t, a, k, r)',
        [
          batch.map((c) => c.record.ts),
          batch.map((c) => c.record.agent),
          batch.map((c) => c.kind),
          batch.map((c) => JSON.stringify(c.record)),
        ],
      );
    },
  });

  const calls: CallRecordStore = {
    call: (record) => writer.push({ kind: 'call', record }),
    search: (record) => void writer.push({ kind: 'search', record }),
    droppedRecords(agent) {
      if (agent !== undefined) return writer.droppedBy.get(agent) ?? 0;
      return [...writer.droppedBy.values()].reduce((a, b) => a + b, 0);
    },
    flush: () => writer.flush().catch((err: unknown) => Promise.reject(dbError(err, 'writing the call records', where))),
    async close() {
      const left = await writer.close();
      if (left) o.log.warn(`${left} call record(s) could not be written to the state database before stopping.`);
    },
    async since(afterId, limit) {
      const r = await q<{ id: string; record: Record<string, unknown> }>(
        'reading the call log',
        `SELECT id::text AS id, record FROM mws_calls WHERE id > $1 AND inserted_at < clock_timestamp() - make_interval(secs => $3) ORDER BY id LIMIT $2`,
        [afterId, limit, settleMs / 1000],
      );
      return r.rows.map((row) => ({ id: Number(row.id), record: row.record }));
    },
    async recent(a = {}): Promise<ActivityEntry[]> {
      await writer.flush().catch(() => {});
      const limit = Math.max(1, Math.min(a.limit ?? 100, 1000));
      const r = await q<{ record: CallRecord }>(
        'reading the activity log',
        `SELECT record FROM mws_calls WHERE kind = 'call' ${a.agent ? 'AND agent = $2' : ''} ORDER BY id DESC LIMIT $1`,
        a.agent ? [limit, a.agent] : [limit],
      );
      return r.rows.map(({ record: c }) => ({
        ts: c.ts,
        agent: c.agent,
        tool: c.tool,
        upstream: c.upstream ?? null,
        via: c.via,
        ok: c.ok,
        ms: c.ms,
        client: c.client,
        ...(c.arguments !== undefined ? { arguments: c.arguments } : {}),
        ...(c.result !== undefined ? { result: c.result } : {}),
      }));
    },
  };

  const checkName = (name: string) => {
    if (typeof name !== 'string' || !SECRET_NAME.test(name))
      throw new MwsError(
        'usage',
        `A secret's name must be 1 to 200 letters, digits or . _ - / : (got ${JSON.stringify(String(name)).slice(0, 60)}).`,
      );
  };
  const secrets: SecretStore = {
    async get(name) {
      checkName(name);
      const r = await q<{ sealed: string }>(`reading the secret ${name}`, 'SELECT sealed FROM mws_secrets WHERE name = $1', [name]);
      const sealed = r.rows[0]?.sealed;
      return sealed === undefined ? undefined : unseal(o.key(), `secret:${name}`, sealed);
    },
    async set(name, value) {
      checkName(name);
      const sealed = seal(o.key(), `secret:${name}`, value);
      await q(
        `saving the secret ${name}`,
        'INSERT INTO mws_secrets (name, sealed) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET sealed = EXCLUDED.sealed',
        [name, sealed],
      );
    },
    async delete(name) {
      checkName(name);
      return (await q(`deleting the secret ${name}`, 'DELETE FROM mws_secrets WHERE name = $1', [name])).rowCount === 1;
    },
    async list() {
      return (await q<{ name: string }>('listing the secrets', 'SELECT name FROM mws_secrets ORDER BY name COLLATE "C"')).rows.map(
        (r) => r.name,
      );
    },
  };

  const oauth: OAuthStore = {
    async get(upstream) {
      const r = await q<{ sealed: string }>(`reading the sign-in of ${upstream}`, 'SELECT sealed FROM mws_oauth WHERE upstream = $1', [
        upstream,
      ]);
      const sealed = r.rows[0]?.sealed;
      return sealed === undefined ? undefined : (JSON.parse(unseal(o.key(), `oauth:${upstream}`, sealed)) as OAuthRecord);
    },
    async set(upstream, value) {
      const sealed = seal(o.key(), `oauth:${upstream}`, JSON.stringify(value));
      await q(
        `saving the sign-in of ${upstream}`,
        'INSERT INTO mws_oauth (upstream, sealed) VALUES ($1, $2) ON CONFLICT (upstream) DO UPDATE SET sealed = EXCLUDED.sealed',
        [upstream, sealed],
      );
    },
    async delete(upstream) {
      await q(`deleting the sign-in of ${upstream}`, 'DELETE FROM mws_oauth WHERE upstream = $1', [upstream]);
    },
    // A transaction-level advisory lock on a connection of its own, held while `fn` runs: it is let go
    // at commit, at rollback, or when the holder dies and its connection closes.
    async exclusive(upstream, fn) {
      const what = `waiting for another replica's refresh of the sign-in of ${upstream}`;
      const client = await pool.connect().catch((err: unknown) => Promise.reject(dbError(err, what, where)));
      let broken: Error | undefined;
      let ended = false;
      try {
        try {
          await client.query('BEGIN');
          await client.query(`SET LOCAL lock_timeout = ${OAUTH_LOCK_WAIT_MS}`);
          await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${OAUTH_LOCK_HOLD_MS}`);
          await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OAUTH_LOCK_CLASS, upstream]);
        } catch (err) {
          broken = err as Error;
          throw dbError(err, what, where);
        }
        const v = await fn();
        // The tokens were saved through the pool already; a lock connection lost meanwhile costs nothing.
        await client.query('COMMIT').catch((err: Error) => (broken = err));
        ended = true;
        return v;
      } finally {
        if (!broken && !ended) await client.query('ROLLBACK').catch((err: Error) => (broken = err));
        client.release(broken);
      }
    },
  };

  const feed = new ChangeListener({
    config: clientConfig,
    origin,
    log: o.log,
    onChange: (c) => listeners.forEach((f) => f(c)),
  });
  try {
    await feed.start();
  } catch (err) {
    await feed.stop();
    await pool.end().catch(() => {});
    throw dbError(err, 'listening for changes from other replicas', where);
  }

  // Leading is holding a session-level advisory lock on one connection of its own: when this process
  // dies its connection closes, the lock is free, and the next replica to ask takes it.
  let leaderClient: pg.Client | undefined;
  let leading = false;
  let asking: Promise<boolean> | undefined;
  const dropLeader = () => {
    leading = false;
    const c = leaderClient;
    leaderClient = undefined;
    c?.end().catch(() => {});
  };
  const askLeader = async (): Promise<boolean> => {
    try {
      if (!leaderClient) {
        const c = new pg.Client(clientConfig);
        c.on('error', dropLeader);
        c.on('end', () => {
          if (leaderClient === c) dropLeader();
        });
        await c.connect();
        leaderClient = c;
      }
      if (leading) {
        // Still connected is still holding it.
        await leaderClient.query('SELECT 1');
        return true;
      }
      const r = await leaderClient.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [LEADER_LOCK_KEY]);
      leading = r.rows[0]?.got === true;
      return leading;
    } catch {
      dropLeader();
      return false;
    }
  };

  const learning = pgLearningFeed({ pool, origin, log: o.log, q });

  let closed = false;
  return {
    leader: () => (asking ??= askLeader().finally(() => (asking = undefined))),
    kind: 'postgres',
    pool,
    listening: () => feed.listening,
    stats: {
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      onQuery(listener) {
        timed.add(listener);
        return () => timed.delete(listener);
      },
    },
    config,
    agents,
    calls,
    learning,
    secrets,
    oauth,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async check() {
      await q('checking the state database', 'SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([calls.close(), agents.close(), learning.close()]);
      await feed.stop();
      dropLeader();
      await pool.end().catch(() => {});
    },
  };
}

/** Fails start-up with a sentence when this replica's key is not the one the stored values were sealed with. */
export async function checkSealingKey(store: PostgresStateStore, key: SealingKey): Promise<void> {
  const r = await store.pool
    .query<{ id: string }>(
      "SELECT split_part(sealed, '.', 2) AS id FROM mws_secrets UNION SELECT split_part(sealed, '.', 2) FROM mws_oauth LIMIT 5",
    )
    .catch((err: unknown) => Promise.reject(dbError(err, 'checking the sealing key', 'the state database')));
  const other = r.rows.find((row) => row.id !== key.id);
  if (other) {
    throw new MwsError(
      'state_key',
      `This replica's sealing key (id ${key.id}) is not the one the database's secrets and sign-ins were sealed with (id ${other.id}). Start every replica with the same MWS_STATE_KEY (or key file); the key is never stored in the database.`,
      { key: key.id, sealedWith: other.id },
    );
  }
}
