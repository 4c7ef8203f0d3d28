// Where the config document is read from and written to, with a version for each state of it: the
// config file (a hash of its text, so a hand edit is a new version too), or a shared store
// (statestore/: the database replicas share). A write names the version it was made from and is
// refused as `conflict` when the document moved on meanwhile.
import { readFile } from 'node:fs/promises';
import { unwatchFile, watchFile } from 'node:fs';
import { MwsError, errorMessage } from '../errors.js';
import { writeJsonAtLinkTarget } from '../store/atomicJson.js';
import { writeBackup } from './backups.js';
import { jsonProblem } from './jsonText.js';
import { textVersion } from './textVersion.js';
import { parseSharingStrings } from './rawJson.js';

export type Raw = Record<string, unknown>;

/** The document now. `version` null: there is none yet. `text`: the file's text (for backups). */
export type ConfigRead = { raw: Raw; version: string | null; text?: string };

export interface ConfigSource {
  /** Where the document lives, for sentences. */
  readonly label: string;
  read(): Promise<ConfigRead>;
  /** Writes unless the document moved past `expected` (then `conflict`); `force`: write even so. Answers the new version. */
  write(raw: Raw, expected: string | null, force: boolean): Promise<string>;
  /** Calls `changed` when the document may have changed from elsewhere (a hand edit, another replica). */
  watch(changed: () => void): () => void;
  /** Keeps a copy of the document as it was before an edit; answers where (null: nothing to copy). */
  backup(before: ConfigRead, now: number): Promise<string | null>;
}

/** How often the config file's mtime is polled; polling survives editors that save by rename. */
export const CONFIG_POLL_MS = 500;

export function configConflict(where: string, data: Record<string, unknown> = {}): MwsError {
  return new MwsError(
    'conflict',
    `The config was changed (by another window, replica or a hand edit of ${where}) since this edit was made from it, so it was not saved. Load the settings again and make the change on the new version.`,
    data,
  );
}

export class FileConfigSource implements ConfigSource {
  readonly label: string;
  constructor(readonly path: string) {
    this.label = `the config file ${path}`;
  }

  async read(): Promise<ConfigRead> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { raw: {}, version: null };
      throw new MwsError('config_unreadable', `Cannot read the config file ${this.path}: ${errorMessage(err)}.`, { path: this.path });
    }
    let raw: unknown;
    try {
      raw = parseSharingStrings(text);
    } catch (err) {
      throw new MwsError('config_invalid', `The config file ${this.path} is not valid JSON now (${jsonProblem(text, err)}).`, {
        path: this.path,
      });
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new MwsError('config_invalid', `The config file ${this.path} must hold a JSON object.`, {
        path: this.path,
      });
    return { raw: raw as Raw, version: textVersion(text), text };
  }

  async write(raw: Raw, expected: string | null, force: boolean): Promise<string> {
    const now = await readFile(this.path, 'utf8').catch(() => undefined);
    if (!force && (now === undefined ? null : textVersion(now)) !== expected) throw configConflict(this.label);
    await writeJsonAtLinkTarget(this.path, raw);
    return textVersion(await readFile(this.path, 'utf8'));
  }

  watch(changed: () => void): () => void {
    const onChange = () => changed();
    watchFile(this.path, { interval: CONFIG_POLL_MS, persistent: false }, onChange);
    return () => unwatchFile(this.path, onChange);
  }

  backup(before: ConfigRead, now: number): Promise<string | null> {
    return before.text === undefined ? Promise.resolve(null) : writeBackup(this.path, before.text, now);
  }
}
