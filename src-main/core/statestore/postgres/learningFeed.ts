// The fleet's learned-search feed in PostgreSQL (search/learningFeed.ts): one row per pair or forget,
// written in batches behind the request. Writers take one transaction-level advisory lock, so rows
// commit in the order of their ids and a reader's cursor never passes a row still being committed;
// the notice goes out with the commit. Each agent keeps its newest pairs, as learned.json would.
import type pg from 'pg';
import type { Logger } from '../../log.js';
import { isLearningEvent, type LearningEvent, type LearningFeed } from '../../search/learningFeed.js';
import { MAX_PAIRS_PER_AGENT } from '../../search/learning.js';
import { BatchWriter } from './batches.js';
import { CHANNEL } from './notify.js';

/** The advisory lock writers of the feed take (any number distinct from the store's other locks). */
const FEED_LOCK_KEY = 0x6d77_7301;
/** Old pairs are pruned after about this many rows were written. */
const PRUNE_EVERY = 2000;

export type PgLearningFeed = LearningFeed & { close(): Promise<number> };

export function pgLearningFeed(o: {
  pool: pg.Pool;
  origin: string;
  log: Logger;
  /** Runs a query with the store's deadline and error sentence. */
  q: <R extends pg.QueryResultRow>(what: string, sql: string, params?: unknown[]) => Promise<pg.QueryResult<R>>;
}): PgLearningFeed {
  let written = 0;
  const notice = JSON.stringify({ kind: 'learning', origin: o.origin });
  const writer = new BatchWriter<LearningEvent>({
    what: 'learned search pairs',
    log: o.log,
    keyOf: (e) => ('agent' in e ? e.agent : '*'),
    insert: async (batch) => {
      const client = await o.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK_KEY]);
        await client.query('INSERT INTO mws_learning (origin, event) SELECT $1, e FROM unnest($2::jsonb[]) AS x(e)', [
          o.origin,
          batch.map((e) => JSON.stringify(e)),
        ]);
        await client.query(`SELECT pg_notify('${CHANNEL}', $1)`, [notice]);
        if ((written += batch.length) >= PRUNE_EVERY) {
          written = 0;
          // Each agent's newest pairs stay; forgets stay (they are few and order matters to them).
          await client.query(
            `DELETE FROM mws_learning WHERE id IN (
               SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY event->>'agent' ORDER BY id DESC) AS n
                               FROM mws_learning WHERE event ? 'pair') x WHERE n > $1)`,
            [MAX_PAIRS_PER_AGENT],
          );
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  });
  return {
    append: (event) => void writer.push(event),
    async since(afterId, limit) {
      const r = await o.q<{ id: string; event: unknown }>(
        'reading what search learned',
        'SELECT id::text AS id, event FROM mws_learning WHERE id > $1 AND origin <> $2 ORDER BY id LIMIT $3',
        [afterId, o.origin, limit],
      );
      return r.rows.flatMap((row) => (isLearningEvent(row.event) ? [{ id: Number(row.id), event: row.event }] : []));
    },
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
}
