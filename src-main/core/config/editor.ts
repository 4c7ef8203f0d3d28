// Config edits from the window, the tray or the ControlApi. Each edit is a merge into the file as it is
// on disk now — re-read at the edit, never a copy kept from start-up — so a hand edit made while the app
// runs is never overwritten. The change is validated exactly as at start-up (a bad value is refused
// with its field and nothing is written), written atomically after checking that nobody changed the
// file meanwhile (else the edit is merged again into the newer file), and only then applied to the
// running core. Edits run one at a time; this process owns the state folder's lock while it runs them.
// Hand edits are picked up live: the file is watched and a valid new version is applied at once.
import { readFile, stat } from 'node:fs/promises';
import { unwatchFile, watchFile } from 'node:fs';
import { MwsError, errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { writeJsonAtLinkTarget } from '../store/atomicJson.js';
import type { Config } from './schema.js';
import { validateConfig } from './validate.js';
import { migrateConfig } from './migrate.js';
import { writeBackup } from './backups.js';
import { jsonProblem } from './jsonText.js';
import { SerialQueue } from '../serial.js';

export type Raw = Record<string, unknown>;

/** How often the config file's mtime is polled; polling survives editors that save by rename. */
export const CONFIG_POLL_MS = 500;
/** Times an edit is merged again when the file changed under it. */
const MERGE_ATTEMPTS = 5;

type OnDisk = { text: string | undefined; raw: Raw };

export class ConfigEditor {
  private raw: Raw;
  private readonly queue = new SerialQueue();
  /** The text last read or written by this editor: a watch event with the same text is our own write. */
  private lastText: string | undefined;
  private watching = false;

  constructor(
    /** Undefined when the running config did not come from a file that may be edited (the demo). */
    private readonly path: string | undefined,
    raw: Raw,
    private readonly stateDirDefault: string,
    /** Applies a validated config to the running core. */
    private readonly apply: (next: Config) => Promise<void>,
    private readonly log?: Logger,
  ) {
    this.raw = structuredClone(raw);
  }

  get editable(): boolean {
    return this.path !== undefined;
  }

  current(): Raw {
    return structuredClone(this.raw);
  }

  private async read(): Promise<OnDisk> {
    let text: string;
    try {
      text = await readFile(this.path!, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: undefined, raw: {} };
      throw new MwsError('config_unreadable', `Cannot read the config file ${this.path}: ${errorMessage(err)}.`, { path: this.path });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new MwsError(
        'config_invalid',
        `The config file ${this.path} is not valid JSON now (${jsonProblem(text, err)}), so the change was not saved. Fix the file, then try again.`,
        { path: this.path },
      );
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new MwsError('config_invalid', `The config file ${this.path} must hold a JSON object; the change was not saved.`, {
        path: this.path,
      });
    return { text, raw: raw as Raw };
  }

  /**
   * Runs `mutate` on the file's JSON as it is on disk now; edits are applied one at a time. With
   * `backup` (the window's edits, import), the file as it was is copied next to it first (backups.ts)
   * and `backup.path` says where (null: there was no file yet).
   */
  update(mutate: (raw: Raw) => void, opts: { backup?: { now: number; path?: string | null } } = {}): Promise<Config> {
    return this.queue.run(async () => {
      if (!this.path) {
        throw new MwsError(
          'conflict',
          'This instance runs the built-in demo without a config file, so settings cannot be saved. Start it with --config FILE to manage agents and upstreams here.',
        );
      }
      for (let attempt = 1; ; attempt++) {
        const disk = await this.read();
        // An older file is written back migrated (with its version) by the first edit.
        const next = migrateConfig(structuredClone(disk.raw)) as Raw;
        mutate(next);
        const config = validateConfig(next, this.stateDirDefault); // throws config_invalid with the field
        // Changed since we read it (a hand edit, another tool)? Merge again into the newer file.
        const now = await readFile(this.path, 'utf8').catch(() => undefined);
        if (now !== disk.text && attempt < MERGE_ATTEMPTS) continue;
        if (opts.backup) opts.backup.path = disk.text === undefined ? null : await writeBackup(this.path, disk.text, opts.backup.now);
        await writeJsonAtLinkTarget(this.path, next);
        this.lastText = await readFile(this.path, 'utf8').catch(() => undefined);
        this.raw = next;
        await this.apply(config);
        return config;
      }
    });
  }

  /**
   * Watches the file for hand edits: a valid new version is applied to the running core at once; an
   * invalid one is reported and the running settings stay as they were (the file is left as the user wrote it).
   */
  watch(): () => void {
    if (!this.path || this.watching) return () => {};
    const path = this.path;
    this.watching = true;
    void stat(path).then(
      async () => (this.lastText ??= await readFile(path, 'utf8').catch(() => undefined)),
      () => undefined,
    );
    const onChange = () => {
      void this.queue.run(() => this.reloadFromDisk()).catch(() => {});
    };
    watchFile(path, { interval: CONFIG_POLL_MS, persistent: false }, onChange);
    return () => {
      this.watching = false;
      unwatchFile(path, onChange);
    };
  }

  private async reloadFromDisk(): Promise<void> {
    let disk: OnDisk;
    try {
      disk = await this.read();
    } catch (err) {
      this.log?.warn(`${errorMessage(err)} The running settings are unchanged.`);
      return;
    }
    if (disk.text === undefined || disk.text === this.lastText) return;
    this.lastText = disk.text;
    let config: Config;
    try {
      config = validateConfig(disk.raw, this.stateDirDefault);
    } catch (err) {
      this.log?.warn(
        `${this.path} was edited but is not valid: ${errorMessage(err)} The running settings are unchanged until it is fixed.`,
      );
      return;
    }
    this.raw = disk.raw;
    this.log?.info(`${this.path} changed; the new settings are applied.`);
    await this.apply(config);
  }
}
