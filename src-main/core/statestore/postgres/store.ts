// The PostgreSQL adapter of the state port. Every query has a deadline (the pool's connect time, the
// server's statement_timeout and a client-side query_timeout), so a database that is down or stalled
// answers `unavailable` within seconds and never holds a request. Secrets and sign-ins are sealed here
// (seal.ts) before they are sent; the key stays on the replica.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MwsError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { StateStore, StoreChange } from '../port.js';
import type { SealingKey } from '../seal.js';
import { dbError } from './errors.js';
import { migrate } from './migrations.js';
import { ChangeListener } from './notify.js';
import { pgLearningFeed } from './learningFeed.js';
import type { PgDb } from './db.js';
import { pgConfig } from './configTable.js';
import { pgAgents } from './agentsTable.js';
import { pgCalls } from './callsTable.js';
import { pgOAuth, pgSecrets } from './sealedTables.js';
import { Leadership } from './leader.js';

export { LEADER_LOCK_KEY } from './leader.js';
export { OAUTH_LOCK_CLASS, OAUTH_LOCK_HOLD_MS, OAUTH_LOCK_WAIT_MS } from './sealedTables.js';

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

/** Where the database is, for sentences: host:port/database, never the password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured PostgreSQL';
  }
}

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

  const db: PgDb = { pool, q, origin, notice, where, log: o.log, key: o.key, settleMs };
  const config = pgConfig(db);
  const agents = pgAgents(db);
  const calls = pgCalls(db);
  const secrets = pgSecrets(db);
  const oauth = pgOAuth(db);

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

  const leader = new Leadership(clientConfig);

  const learning = pgLearningFeed({ pool, origin, log: o.log, q });

  let closed = false;
  return {
    leader: () => leader.ask(),
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
      leader.drop();
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
