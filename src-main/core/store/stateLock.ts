// One owner per state folder. Whoever works on a state folder — a running instance, or a CLI command
// when none runs — holds a lock in it (proper-lockfile: an atomic mkdir of `instance.lock`, kept fresh
// by touching its mtime) and records who it is in `instance.json`: pid, URL and where its control
// token is. The CLI finds a running instance through that record whatever port it listens on, and a
// second instance on the same folder refuses to start with a sentence naming the first.
//
// A crashed holder (kill -9) leaves the lock behind: it is taken over once it is stale (not touched
// for STALE_MS), or at once when the recorded pid is no longer alive — removing the old lock only if
// it is still the very directory that was seen dead, so two starters cannot both take it.
import lockfile from 'proper-lockfile';
import { readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MwsError } from '../errors.js';
import type { Logger } from '../log.js';
import { writeJsonAtomic } from './atomicJson.js';
import { TOKEN_FILE } from './controlToken.js';
import { ensureStateFolder, stateFolderError } from './stateFolder.js';

export const LOCK_DIR = 'instance.lock';
export const INSTANCE_FILE = 'instance.json';
/** A lock not touched for this long belongs to a holder that is gone (generous: a loaded machine can stall for seconds). */
export const STALE_MS = 20_000;
const UPDATE_MS = 5_000;
/** How long a start or a CLI command waits for a short-lived holder (another CLI command) to finish. */
export const LOCK_WAIT_MS = 15_000;
const RETRY_MS = 100;

export type InstanceRecord = {
  pid: number;
  /** The base URL it listens on; null while starting, and for a CLI command working on the files. */
  url: string | null;
  /** Where its control token is (null: it does not listen). */
  tokenFile: string | null;
  /** What holds it: "mws serve", "Working Set (desktop)", "mws promote", … */
  command: string;
  startedAt: string;
};

const lockOptions = (stateDir: string) => ({ lockfilePath: join(stateDir, LOCK_DIR), realpath: false, stale: STALE_MS });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function readInstanceRecord(stateDir: string): Promise<InstanceRecord | undefined> {
  try {
    const v = JSON.parse(await readFile(join(stateDir, INSTANCE_FILE), 'utf8')) as Partial<InstanceRecord>;
    if (typeof v.pid !== 'number' || typeof v.command !== 'string') return undefined;
    return {
      pid: v.pid,
      url: typeof v.url === 'string' ? v.url : null,
      tokenFile: typeof v.tokenFile === 'string' ? v.tokenFile : null,
      command: v.command,
      startedAt: String(v.startedAt ?? ''),
    };
  } catch {
    return undefined;
  }
}

/** Who holds the state folder now: undefined when nobody (or only a dead holder) does; `record` may be missing while a holder starts. */
export async function lockHolder(stateDir: string): Promise<{ record: InstanceRecord | undefined } | undefined> {
  let held: boolean;
  try {
    held = await lockfile.check(stateDir, lockOptions(stateDir));
  } catch {
    return undefined; // no state folder yet: nobody holds it
  }
  if (!held) return undefined;
  const record = await readInstanceRecord(stateDir);
  if (record && !alive(record.pid)) return undefined;
  return { record };
}

/** "mws serve (pid 123, listening on http://127.0.0.1:4100)" */
export function describeHolder(record: InstanceRecord | undefined): string {
  if (!record) return 'another Working Set process that is still starting';
  return `${record.command} (pid ${record.pid}${record.url ? `, listening on ${record.url}` : ''}, since ${record.startedAt})`;
}

/** Removes a lock whose recorded holder is dead, if the lock is still the one seen dead. */
async function takeOverDead(stateDir: string, log: Logger): Promise<boolean> {
  const record = await readInstanceRecord(stateDir);
  if (!record || alive(record.pid)) return false;
  const dir = join(stateDir, LOCK_DIR);
  const seen = await stat(dir).catch(() => undefined);
  if (!seen) return true;
  const again = await readInstanceRecord(stateDir);
  const now = await stat(dir).catch(() => undefined);
  if (!now || now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs || again?.pid !== record.pid) return false;
  await rmdir(dir).catch(() => {});
  log.warn(`took over the state folder ${stateDir} from ${record.command} (pid ${record.pid}), which is no longer running.`);
  return true;
}

export class StateLock {
  private released = false;
  private constructor(
    readonly stateDir: string,
    private record: InstanceRecord,
    private readonly releaseLock: () => Promise<void>,
  ) {}

  /**
   * Takes the state folder, waiting up to `waitMs` for a holder that does not listen (a CLI command).
   * A holder that listens is another instance: refused at once with a sentence naming it.
   */
  static async acquire(stateDir: string, who: { command: string; waitMs?: number }, log: Logger): Promise<StateLock> {
    await ensureStateFolder(stateDir);
    const end = Date.now() + (who.waitMs ?? LOCK_WAIT_MS);
    let lock: StateLock | undefined;
    for (;;) {
      try {
        const release = await lockfile.lock(stateDir, {
          ...lockOptions(stateDir),
          update: UPDATE_MS,
          // A lock found touched by someone else (or not touchable): say so instead of crashing the app.
          onCompromised: (err: Error) =>
            log.warn(`the lock on the state folder ${stateDir} was lost (${err.message}); another process may now write to it.`),
        });
        const record: InstanceRecord = {
          pid: process.pid,
          url: null,
          tokenFile: null,
          command: who.command,
          startedAt: new Date().toISOString(),
        };
        lock = new StateLock(stateDir, record, release);
        try {
          await lock.write();
        } catch (err) {
          await release().catch(() => {});
          throw stateFolderError(stateDir, err);
        }
        return lock;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') {
          if (err instanceof MwsError) throw err;
          throw stateFolderError(stateDir, err);
        }
      }
      if (await takeOverDead(stateDir, log)) continue;
      const holder = await lockHolder(stateDir);
      if (holder?.record?.url) {
        throw new MwsError(
          'state_locked',
          `The state folder ${stateDir} is in use by ${describeHolder(holder.record)}. Stop that one first, or give this one another "stateDir".`,
          { holder: holder.record },
        );
      }
      if (Date.now() >= end) {
        throw new MwsError(
          'state_locked',
          `The state folder ${stateDir} is in use by ${describeHolder(holder?.record)}, which did not finish within ${Math.round((who.waitMs ?? LOCK_WAIT_MS) / 1000)} s. Try again when it is done.`,
          { holder: holder?.record ?? null },
        );
      }
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  get current(): InstanceRecord {
    return this.record;
  }

  /** Records the URL this holder listens on, so the CLI can reach it. */
  async listening(url: string): Promise<void> {
    this.record = { ...this.record, url, tokenFile: join(this.stateDir, TOKEN_FILE) };
    await this.write();
  }

  private write(): Promise<void> {
    return writeJsonAtomic(join(this.stateDir, INSTANCE_FILE), this.record);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    // The record goes first: a reader that still sees the lock then waits rather than calling a closed URL.
    await rm(join(this.stateDir, INSTANCE_FILE), { force: true }).catch(() => {});
    await this.releaseLock().catch(() => {});
  }
}
