// Config edits from the window, the tray or the ControlApi. Each edit is a merge into the document as
// it is now — re-read at the edit, never a copy kept from start-up — so a hand edit (or another
// replica's edit) made while the app runs is never overwritten. The change is validated exactly as at
// start-up (a bad value is refused with its field and nothing is written), written only if nobody
// changed the document meanwhile (else the edit is merged again into the newer one), and only then
// applied to the running core. An edit made from a version the caller names (HTTP If-Match) is refused
// as `conflict` when the document has moved past it. Edits run one at a time in this process.
// Changes from elsewhere are picked up live: a valid new version is applied at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import type { Config } from './schema.js';
import { validateConfig } from './validate.js';
import { migrateConfig } from './migrate.js';
import { SerialQueue } from '../serial.js';
import { FileConfigSource, configConflict, type ConfigRead, type ConfigSource, type Raw } from './source.js';
import { cloneJson } from './rawJson.js';
import { MwsError } from '../errors.js';

export type { Raw } from './source.js';
export { CONFIG_POLL_MS } from './source.js';

/** Times an edit is merged again when the document changed under it. */
const MERGE_ATTEMPTS = 5;

/**
 * Edits that may wait at once; one more is refused (409) rather than queued. Each edit waits for the
 * one before to be applied, which can mean stopping a server, so an unbounded queue left a flood's
 * callers unanswered for minutes and applied their edits long after they gave up.
 */
export const MAX_WAITING_EDITS = 16;

/**
 * The version a request says its edit was made from (the control transport sets it from If-Match for
 * the edits that request makes). Absent: the edit merges into whatever the document is now.
 */
export const editBase = new AsyncLocalStorage<{ version: string }>();

/** A document that cannot be read as settings refuses an edit: the sentence says the edit was not saved. */
function notSaved(err: unknown): unknown {
  if (!(err instanceof MwsError) || err.code !== 'config_invalid') return err;
  return new MwsError(err.code, `${err.message} The change was not saved: fix the file, then try again.`, err.data);
}

export class ConfigEditor {
  private raw: Raw;
  private readonly queue = new SerialQueue();
  private readonly source: ConfigSource | undefined;
  /** The version last read or written by this editor: a change event at that version is our own write. */
  private seen: string | null | undefined;
  /** The version whose settings run now (a hand edit that broke the file leaves the last good one). */
  private inForce: string | null | undefined;
  /** Why the last read of the document failed (not JSON, unreadable); cleared by the next read that works. */
  private readFailed: string | undefined;
  /** Why the version `seen` was refused, when it was. */
  private seenRefused: string | undefined;
  private watching = false;
  private waiting = 0;

  constructor(
    /** The config file, or another source (the shared database); undefined when not editable (the demo). */
    where: string | ConfigSource | undefined,
    raw: Raw,
    private readonly stateDirDefault: string,
    /** Applies a validated config to the running core. */
    private readonly apply: (next: Config) => Promise<void>,
    private readonly log?: Logger,
    /** The version `raw` was read at, when known. */
    version?: string | null,
  ) {
    this.source = typeof where === 'string' ? new FileConfigSource(where) : where;
    this.raw = cloneJson(raw);
    this.seen = version;
    this.inForce = version;
  }

  get editable(): boolean {
    return this.source !== undefined;
  }

  current(): Raw {
    return cloneJson(this.raw);
  }

  /** The version of the document the running config came from (null: none stored; undefined: not known yet). */
  get version(): string | null | undefined {
    return this.seen;
  }

  /** The version whose settings run now: the CLI trusts a file of this version without validating it again (cli/configLater.ts). */
  get versionInForce(): string | null | undefined {
    return this.inForce;
  }

  /** Why the document as it is now is not in force: an edit by hand broke it, or it cannot be read. */
  get problem(): string | undefined {
    return this.readFailed ?? this.seenRefused;
  }

  /**
   * Runs `mutate` on the document as it is now; edits are applied one at a time. With `backup` (the
   * window's edits, import), the document as it was is copied first (backups.ts) and `backup.path`
   * says where (null: there was nothing yet).
   */
  update(mutate: (raw: Raw) => void, opts: { backup?: { now: number; path?: string | null }; baseVersion?: string } = {}): Promise<Config> {
    const base = opts.baseVersion ?? editBase.getStore()?.version;
    if (this.waiting >= MAX_WAITING_EDITS) {
      return Promise.reject(
        new MwsError(
          'conflict',
          `The settings are busy: ${this.waiting} changes are still being saved and applied. Try again once they are done.`,
          { waiting: this.waiting },
        ),
      );
    }
    this.waiting++;
    const done = () => void this.waiting--;
    const edited = this.queue.run(async () => {
      const source = this.source;
      if (!source) {
        throw new MwsError(
          'conflict',
          'This instance runs the built-in demo without a config file, so settings cannot be saved. Start it with --config FILE to manage agents and upstreams here.',
        );
      }
      for (let attempt = 1; ; attempt++) {
        const disk = await source.read().catch((err: unknown) => {
          throw notSaved(err);
        });
        if (attempt === 1 && base !== undefined && base !== (disk.version ?? 'none')) {
          throw configConflict(source.label, { base, current: disk.version });
        }
        // An older document is written back migrated (with its version) by the first edit.
        const next = migrateConfig(cloneJson(disk.raw)) as Raw;
        mutate(next);
        const config = validateConfig(next, this.stateDirDefault); // throws config_invalid with the field
        if (opts.backup) opts.backup.path = await source.backup(disk, opts.backup.now);
        let version: string;
        try {
          // The last attempt writes as the file always did; a shared store still refuses a moved document.
          version = await source.write(next, disk.version, attempt >= MERGE_ATTEMPTS);
        } catch (err) {
          if (err instanceof MwsError && err.code === 'conflict' && attempt < MERGE_ATTEMPTS) continue;
          throw err;
        }
        this.seen = version;
        this.inForce = version;
        this.readFailed = this.seenRefused = undefined;
        this.raw = next;
        await this.apply(config);
        return config;
      }
    });
    edited.then(done, done);
    return edited;
  }

  /**
   * Watches the document for changes from elsewhere: a valid new version is applied to the running
   * core at once; an invalid one is reported and the running settings stay as they were.
   */
  watch(): () => void {
    const source = this.source;
    if (!source || this.watching) return () => {};
    this.watching = true;
    if (this.seen === undefined)
      void source.read().then(
        (d) => {
          this.seen ??= d.version;
          // In force only if valid: the file may have changed since the settings running now were read.
          if (this.inForce !== undefined || d.version === null) return;
          try {
            validateConfig(d.raw, this.stateDirDefault);
            this.inForce = d.version;
          } catch (err) {
            this.seenRefused = errorMessage(err);
          }
        },
        () => undefined,
      );
    const stop = source.watch(() => void this.queue.run(() => this.reload(source)).catch(() => {}));
    return () => {
      this.watching = false;
      stop();
    };
  }

  /** Reads the document again now (another replica said it changed; a reconnect may have missed some). */
  refresh(): Promise<void> {
    const source = this.source;
    return source ? this.queue.run(() => this.reload(source)).catch(() => {}) : Promise.resolve();
  }

  private async reload(source: ConfigSource): Promise<void> {
    let disk: ConfigRead;
    try {
      disk = await source.read();
    } catch (err) {
      this.readFailed = errorMessage(err);
      this.log?.warn(`${errorMessage(err)} The running settings are unchanged.`);
      return;
    }
    if (disk.version === null) return;
    this.readFailed = undefined;
    // Read again as it was (after a read that failed): what is wrong with it, if anything, is as before.
    if (disk.version === this.seen) return;
    this.seen = disk.version;
    let config: Config;
    try {
      config = validateConfig(disk.raw, this.stateDirDefault);
    } catch (err) {
      this.seenRefused = errorMessage(err);
      this.log?.warn(
        `${source.label} was edited but is not valid: ${errorMessage(err)} The running settings are unchanged until it is fixed.`,
      );
      return;
    }
    this.inForce = disk.version;
    this.seenRefused = undefined;
    this.raw = disk.raw;
    this.log?.info(`${source.label} changed; the new settings are applied.`);
    await this.apply(config);
  }
}
