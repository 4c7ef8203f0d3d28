// The fleet's call log in PostgreSQL: records written in batches behind the request, read by the
// working-set cycle in id order once they settled, and the latest calls for the activity view.
import type { ActivityEntry } from '../../usage/activityTypes.js';
import type { CallRecord, SearchRecord } from '../../usage/callLog.js';
import type { CallRecordStore } from '../port.js';
import { BatchWriter } from './batches.js';
import { dbError } from './errors.js';
import type { PgDb } from './db.js';

type Call = { kind: 'call' | 'search'; record: CallRecord | SearchRecord };

export function pgCalls({ pool, q, where, settleMs, log }: PgDb): CallRecordStore {
  const writer = new BatchWriter<Call>({
    what: 'call records',
    log,
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

  return {
    settleMs,
    call: (record) => writer.push({ kind: 'call', record }),
    search: (record) => void writer.push({ kind: 'search', record }),
    droppedRecords(agent) {
      if (agent !== undefined) return writer.droppedBy.get(agent) ?? 0;
      return [...writer.droppedBy.values()].reduce((a, b) => a + b, 0);
    },
    flush: () => writer.flush().catch((err: unknown) => Promise.reject(dbError(err, 'writing the call records', where))),
    async close() {
      const left = await writer.close();
      if (left) log.warn(`${left} call record(s) could not be written to the state database before stopping.`);
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
}
