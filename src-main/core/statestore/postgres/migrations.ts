// The database's schema, as versioned plain SQL applied in order and recorded in mws_migrations.
// Replicas starting together take one advisory lock first, so exactly one applies each version and
// the others find it done. A migration is never edited once released: a change is a new version.
import type pg from 'pg';
import { MwsError } from '../../errors.js';

export type Migration = { version: number; name: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'state port: config, agents, history, calls, secrets, sign-ins',
    sql: `
      CREATE TABLE mws_config (
        id smallint PRIMARY KEY CHECK (id = 1),
        doc jsonb NOT NULL,
        version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE mws_agent_state (
        agent text PRIMARY KEY,
        state jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE mws_agent_history (
        id bigserial PRIMARY KEY,
        agent text NOT NULL,
        entry jsonb NOT NULL
      );
      CREATE INDEX mws_agent_history_agent ON mws_agent_history (agent, id);
      CREATE TABLE mws_calls (
        id bigserial PRIMARY KEY,
        ts timestamptz NOT NULL,
        agent text NOT NULL,
        kind text NOT NULL,
        record jsonb NOT NULL
      );
      CREATE INDEX mws_calls_agent ON mws_calls (agent, id);
      CREATE TABLE mws_secrets (name text PRIMARY KEY, sealed text NOT NULL);
      CREATE TABLE mws_oauth (upstream text PRIMARY KEY, sealed text NOT NULL);
    `,
  },
  {
    version: 2,
    name: 'call records: when each was inserted, so readers of the log never pass one still being committed',
    sql: `
      ALTER TABLE mws_calls ADD COLUMN inserted_at timestamptz NOT NULL DEFAULT clock_timestamp();
    `,
  },
  {
    version: 3,
    name: "agents' working sets: a version per row, so one replica's save never overwrites another's change unseen",
    sql: `
      ALTER TABLE mws_agent_state ADD COLUMN version bigint NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 4,
    name: 'learned search: one feed of pairs and forgets every replica applies',
    sql: `
      CREATE TABLE mws_learning (id bigserial PRIMARY KEY, origin text NOT NULL, event jsonb NOT NULL);
    `,
  },
];

/** One number for the whole product: any two replicas of any version contend for the same lock. */
export const MIGRATION_LOCK_KEY = 73_460_112;

/** Applies what is missing, under the advisory lock; answers the versions this call applied. */
export async function migrate(client: pg.ClientBase, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS mws_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM mws_migrations')).rows.map((r) => r.version));
    const newest = Math.max(0, ...done);
    const known = Math.max(0, ...migrations.map((m) => m.version));
    if (newest > known) {
      throw new MwsError(
        'state_unusable',
        `The state database was migrated by a newer Working Set (schema version ${newest}; this one knows up to ${known}). Upgrade this replica to the version the others run.`,
        { schema: newest, known },
      );
    }
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO mws_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
  }
}
