// Secrets and upstream sign-ins in PostgreSQL, sealed on this replica (seal.ts) before they are sent:
// the database holds nothing it could read. A sign-in's refresh runs under a lock of the fleet.
import { MwsError } from '../../errors.js';
import { SECRET_NAME, type SecretStore } from '../../secrets/store.js';
import type { OAuthRecord, OAuthStore } from '../../upstream/oauth/store.js';
import { unseal, seal } from '../seal.js';
import { dbError } from './errors.js';
import type { PgDb } from './db.js';

/** The class of the per-upstream advisory locks held around an OAuth refresh (the upstream's name hashed is the other half). */
export const OAUTH_LOCK_CLASS = 73_460_114;
/** How long a replica waits for another one's refresh of the same upstream before going on without refreshing. */
export const OAUTH_LOCK_WAIT_MS = 10_000;
/** A refresh holding the lock longer is cut off by the server (its session ends), so a stuck replica cannot hold it. */
export const OAUTH_LOCK_HOLD_MS = 30_000;

export function pgSecrets({ q, key }: PgDb): SecretStore {
  const checkName = (name: string) => {
    if (typeof name !== 'string' || !SECRET_NAME.test(name))
      throw new MwsError(
        'usage',
        `A secret's name must be 1 to 200 letters, digits or . _ - / : (got ${JSON.stringify(String(name)).slice(0, 60)}).`,
      );
  };
  return {
    async get(name) {
      checkName(name);
      const r = await q<{ sealed: string }>(`reading the secret ${name}`, 'SELECT sealed FROM mws_secrets WHERE name = $1', [name]);
      const sealed = r.rows[0]?.sealed;
      return sealed === undefined ? undefined : unseal(key(), `secret:${name}`, sealed);
    },
    async set(name, value) {
      checkName(name);
      const sealed = seal(key(), `secret:${name}`, value);
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
}

export function pgOAuth({ pool, q, where, key }: PgDb): OAuthStore {
  return {
    async get(vendor) {
      const r = await q<{ sealed: string }>(`reading the sign-in of ${vendor}`, 'SELECT sealed FROM mws_oauth WHERE upstream = $1', [
        vendor,
      ]);
      const sealed = r.rows[0]?.sealed;
      return sealed === undefined ? undefined : (JSON.parse(unseal(key(), `oauth:${vendor}`, sealed)) as OAuthRecord);
    },
    async set(vendor, value) {
      const sealed = seal(key(), `oauth:${vendor}`, JSON.stringify(value));
      await q(
        `saving the sign-in of ${vendor}`,
        'INSERT INTO mws_oauth (upstream, sealed) VALUES ($1, $2) ON CONFLICT (upstream) DO UPDATE SET sealed = EXCLUDED.sealed',
        [vendor, sealed],
      );
    },
    async delete(vendor) {
      await q(`deleting the sign-in of ${vendor}`, 'DELETE FROM mws_oauth WHERE upstream = $1', [vendor]);
    },
    // A transaction-level advisory lock on a connection of its own, held while `fn` runs: it is let go
    // at commit, at rollback, or when the holder dies and its connection closes.
    async exclusive(vendor, fn) {
      const what = `waiting for another replica's refresh of the sign-in of ${vendor}`;
      const client = await pool.connect().catch((err: unknown) => Promise.reject(dbError(err, what, where)));
      let broken: Error | undefined;
      let ended = false;
      try {
        try {
          await client.query('BEGIN');
          await client.query(`SET LOCAL lock_timeout = ${OAUTH_LOCK_WAIT_MS}`);
          await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${OAUTH_LOCK_HOLD_MS}`);
          await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OAUTH_LOCK_CLASS, vendor]);
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
}
