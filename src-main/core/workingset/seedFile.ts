// stateDir/working-set.json in the seed's shape: `{"promoted": [...], "pinned": [...]}`, re-read when
// its modification time changes, so an edit (or `mws promote` from cron) shows up without a restart.
import { readFileSync, statSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.js';

export const WORKING_SET_FILE = 'working-set.json';
/** How often the file's mtime is polled; polling survives atomic replace-by-rename, which inotify watches do not. */
export const WORKING_SET_POLL_MS = 500;

export class SeedWorkingSetFile {
  readonly path: string;
  private mtimeMs = -1;
  private names: string[] = [];
  private watching = false;

  constructor(
    stateDir: string,
    private readonly log: Logger,
  ) {
    this.path = join(stateDir, WORKING_SET_FILE);
  }

  /**
   * The promoted and pinned names. While watched, the watcher keeps them fresh (no file I/O here: the
   * tray and the listing ask often); otherwise the file is re-read first if it changed.
   */
  current(): string[] {
    if (!this.watching || this.mtimeMs < 0) this.reloadIfChanged();
    return this.names;
  }

  /** Calls `onChange` whenever the file's content may have changed. */
  watch(onChange: () => void): () => void {
    if (this.watching) throw new Error('already watching');
    this.watching = true;
    watchFile(this.path, { interval: WORKING_SET_POLL_MS, persistent: false }, () => {
      if (this.reloadIfChanged()) onChange();
    });
    return () => {
      this.watching = false;
      unwatchFile(this.path);
    };
  }

  /** Answers whether the names were re-read. */
  private reloadIfChanged(): boolean {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.path).mtimeMs;
    } catch {
      mtimeMs = 0;
    }
    if (mtimeMs === this.mtimeMs) return false;
    this.mtimeMs = mtimeMs;
    this.names = mtimeMs === 0 ? [] : this.read();
    return true;
  }

  private read(): string[] {
    try {
      const raw: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      const o = (Array.isArray(raw) ? { promoted: raw } : raw) as { promoted?: unknown; pinned?: unknown };
      const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
      return [...new Set([...list(o.pinned), ...list(o.promoted)])];
    } catch (err) {
      // Keep the last good names: a half-written edit must not empty every agent's list.
      this.log.warn(`${this.path} could not be read (${(err as Error).message}); keeping the previous working set.`);
      return this.names;
    }
  }
}
