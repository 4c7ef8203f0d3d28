// Choosing and opening the state store for `mws serve`: PostgreSQL when "store.postgres.url" (or
// MWS_DATABASE_URL) says so, else nothing (the state folder, as always). With PostgreSQL the config
// document is the database's: the replicas share upstreams, agents and settings, and each keeps its
// own "listen", "stateDir" and "store" from its own file. The first replica on an empty database
// brings its file's shared part in.
import type { Config } from '../config/schema.js';
import type { ConfigRead, ConfigSource, Raw } from '../config/source.js';
import { MwsError } from '../errors.js';
import type { Logger } from '../log.js';
import type { StateStore } from './port.js';
import type { PostgresStateStore } from './postgres/store.js';
import { loadSealingKey, type SealingKey } from './seal.js';

export const DATABASE_URL_ENV = 'MWS_DATABASE_URL';

/** Settings that belong to one replica (where it listens, its own folder, how it reaches the store): never shared. */
export const REPLICA_KEYS: readonly string[] = ['listen', 'stateDir', 'store', '$schema'];

export function splitConfig(raw: Raw): { shared: Raw; local: Raw } {
  const shared: Raw = {};
  const local: Raw = {};
  for (const [k, v] of Object.entries(raw)) (REPLICA_KEYS.includes(k) ? local : shared)[k] = v;
  return { shared, local };
}

/** The shared document seen with this replica's own keys on top; edits write back only the shared part. */
export class StoreConfigSource implements ConfigSource {
  readonly label: string;
  constructor(
    private readonly store: StateStore,
    private readonly local: Raw,
  ) {
    this.label = store.config.label;
  }

  async read(): Promise<ConfigRead> {
    const s = await this.store.config.read();
    return { raw: { ...(s?.raw ?? {}), ...structuredClone(this.local) }, version: s?.version ?? null };
  }

  /** Never written blind, not even on the editor's last attempt: a moved document is a conflict. */
  write(raw: Raw, expected: string | null): Promise<string> {
    return this.store.config.write(splitConfig(raw).shared, expected);
  }

  watch(changed: () => void): () => void {
    return this.store.onChange((c) => {
      if (c.kind === 'config') changed();
    });
  }

  async backup(): Promise<null> {
    return null;
  }
}

export type SharedState = { store: PostgresStateStore; source: StoreConfigSource; raw: Raw; version: string | null; where: string };

/** The database URL this config asks for, if any. */
export function databaseUrl(config: Pick<Config, 'store'>, env: NodeJS.ProcessEnv): string | undefined {
  return config.store?.postgres?.url ?? (env[DATABASE_URL_ENV] || undefined);
}

/**
 * Opens the shared store when one is configured (else undefined): migrations, the change feed, the
 * sealing key checked against what is stored, and the config document (seeded from `fileRaw` when empty).
 */
export async function openSharedState(o: {
  config: Config;
  fileRaw: Raw;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** false: a command reading the fleet's state never brings its own config in (default true, for `mws serve`). */
  seed?: boolean;
}): Promise<SharedState | undefined> {
  const url = databaseUrl(o.config, o.env);
  if (!url) return undefined;
  const keyFile = o.config.store?.postgres?.keyFile;
  let key: SealingKey | undefined;
  let keyError: MwsError | undefined;
  try {
    key = loadSealingKey(o.env, keyFile);
  } catch (err) {
    if (!(err instanceof MwsError)) throw err;
    keyError = err;
  }
  // node-postgres and the store's code load only here: an instance on its state folder never pays for them.
  const { checkSealingKey, describeUrl, openPostgresStore } = await import('./postgres/store.js');
  const store = await openPostgresStore({
    url,
    log: o.log,
    key: () => {
      if (key) return key;
      throw keyError!;
    },
  });
  try {
    if (key) await checkSealingKey(store, key);
    else o.log.warn(`${keyError!.message} Until then, secrets and sign-ins kept in the database cannot be used.`);
    const { shared, local } = splitConfig(o.fileRaw);
    let stored = await store.config.read();
    if (!stored && o.seed !== false) {
      try {
        const version = await store.config.write(shared, null);
        stored = { raw: shared, version };
        o.log.info(`the state database had no config yet; this replica's upstreams, agents and settings were brought in.`);
      } catch (err) {
        // Another replica seeded it first: use theirs.
        if (!(err instanceof MwsError && err.code === 'conflict')) throw err;
        stored = await store.config.read();
      }
    }
    const source = new StoreConfigSource(store, local);
    return {
      store,
      source,
      raw: { ...(stored?.raw ?? {}), ...local },
      version: stored?.version ?? null,
      where: describeUrl(url),
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
