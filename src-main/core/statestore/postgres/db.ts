// What every table of the PostgreSQL state store works with: the pool, a query with the store's
// deadline and error sentence, the change notice other replicas hear, and this replica's sealing key.
import type pg from 'pg';
import type { Logger } from '../../log.js';
import type { StoreChange } from '../port.js';
import type { SealingKey } from '../seal.js';

export type Query = <R extends pg.QueryResultRow>(what: string, sql: string, params?: unknown[]) => Promise<pg.QueryResult<R>>;

export type PgDb = {
  pool: pg.Pool;
  q: Query;
  /** This replica's id in change notices: its own changes are not read back. */
  origin: string;
  /** The notice text of a change, for pg_notify. */
  notice: (change: StoreChange) => string;
  /** The database as sentences name it (host:port/db). */
  where: string;
  log: Logger;
  key: () => SealingKey;
  /** How old an inserted call record must be before the log is read past it (store.ts SETTLE_MS). */
  settleMs: number;
};
