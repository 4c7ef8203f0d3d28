// Each agent's working set in PostgreSQL, written only over the version this replica read (a save
// from an older read is a conflict, said in a sentence), and its history, appended in batches.
import { MwsError } from '../../errors.js';
import { agentStateSchema, fits } from '../../store/shapes.js';
import { agentStateFrom, emptyAgentState, type AgentState, type HistoryEntry, type StoredHistoryEntry } from '../../workingset/types.js';
import type { AgentStateStore } from '../../workingset/stateFiles.js';
import { BatchWriter } from './batches.js';
import { CHANNEL } from './notify.js';
import type { PgDb } from './db.js';

const isAgentState = fits(agentStateSchema) as (v: unknown) => v is AgentState;

/** A history line as stored: the upstream of a promoted tool rides along (`vendor`, the key state files use too). */
type HistoryRow = { agent: string; entry: StoredHistoryEntry };

export function pgAgents({ pool, q, notice, log }: PgDb): AgentStateStore {
  const history = new BatchWriter<HistoryRow>({
    what: 'working-set history lines',
    log,
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
  return {
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
        log.warn(`agent "${agent}": the working set stored in the database does not have the expected shape; it starts empty.`);
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
    appendHistory(agent, entries) {
      for (const entry of entries) history.push({ agent, entry });
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
      if (left) log.warn(`${left} working-set history line(s) could not be written to the state database before stopping.`);
    },
  };
}
