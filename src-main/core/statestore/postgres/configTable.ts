// The config document in PostgreSQL: one row, written only over the version it was read at, with the
// notice to the other replicas going out at commit.
import type { ConfigDocumentStore, Raw, StoredConfig } from '../port.js';
import { configConflict } from '../../config/source.js';
import { CHANNEL } from './notify.js';
import type { PgDb } from './db.js';
import { shareConfigStrings } from '../../config/rawJson.js';

export function pgConfig({ q, origin, where }: PgDb): ConfigDocumentStore {
  return {
    label: `the state database ${where}`,
    async read(): Promise<StoredConfig | undefined> {
      const r = await q<{ doc: Raw; version: string }>(
        'reading the config',
        'SELECT doc, version::text AS version FROM mws_config WHERE id = 1',
      );
      const row = r.rows[0];
      // node-postgres parses the row anew at each read: its repeated strings (pins) held once, as a file's are.
      if (row) shareConfigStrings(row.doc);
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
}
