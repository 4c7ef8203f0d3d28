// The files adapter of the state port: today's state folder and config file, byte for byte as before.
// One process owns the folder (its lock), so there are no other writers to hear of.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { MwsError, errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import { FileSecretStore, type SecretStore } from '../secrets/store.js';
import { writeJsonAtLinkTarget } from '../store/atomicJson.js';
import { FileOAuthStore, type OAuthStore } from '../upstream/oauth/store.js';
import { recentCalls } from '../usage/activity.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import { CallLog, type CallRecord, type SearchRecord } from '../usage/callLog.js';
import { AgentStateFiles } from '../workingset/stateFiles.js';
import type { CallRecordStore, ConfigDocumentStore, Raw, StateStore, StoredConfig } from './port.js';

/** A config file's version: a hash of its text, so any change (a hand edit too) is a new version. */
export function textVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export class FileConfigDocument implements ConfigDocumentStore {
  readonly label: string;
  constructor(readonly path: string) {
    this.label = `the config file ${path}`;
  }

  /** The text as well, for the editor's backups and its own-write check. */
  async readText(): Promise<{ text: string; raw: Raw; version: string } | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new MwsError('config_unreadable', `Cannot read the config file ${this.path}: ${errorMessage(err)}.`, { path: this.path });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new MwsError('config_invalid', `The config file ${this.path} is not valid JSON now; fix the file, then try again.`, {
        path: this.path,
      });
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new MwsError('config_invalid', `The config file ${this.path} must hold a JSON object.`, { path: this.path });
    return { text, raw: raw as Raw, version: textVersion(text) };
  }

  async read(): Promise<StoredConfig | undefined> {
    const r = await this.readText();
    return r && { raw: r.raw, version: r.version };
  }

  async write(raw: Raw, expected: string | null): Promise<string> {
    const now = await readFile(this.path, 'utf8').catch(() => undefined);
    const version = now === undefined ? null : textVersion(now);
    if (version !== expected) throw configConflict(this.label);
    await writeJsonAtLinkTarget(this.path, raw);
    return textVersion(await readFile(this.path, 'utf8'));
  }
}

export function configConflict(where: string, data: Record<string, unknown> = {}): MwsError {
  return new MwsError(
    'conflict',
    `The config was changed (by another window, replica or a hand edit of ${where}) since this edit was made from it, so it was not saved. Load the settings again and make the change on the new version.`,
    data,
  );
}

class FileCalls implements CallRecordStore {
  private readonly log: CallLog;
  constructor(
    private readonly stateDir: string,
    o: { log: Logger; now: () => number },
  ) {
    this.log = new CallLog(stateDir, o);
  }
  call(r: CallRecord): void {
    this.log.call(r);
  }
  search(r: SearchRecord): void {
    this.log.search(r);
  }
  droppedRecords(agent?: string): number {
    return this.log.droppedRecords(agent);
  }
  flush(): Promise<void> {
    return this.log.flush();
  }
  close(): Promise<void> {
    return this.log.close();
  }
  async recent(o: { agent?: string; limit?: number } = {}): Promise<ActivityEntry[]> {
    await this.log.flush();
    return recentCalls(this.stateDir, o);
  }
}

export type FilesStoreOptions = {
  stateDir: string;
  /** The config file (none: a run whose config is not editable, such as the demo). */
  configPath?: string;
  log: Logger;
  now: () => number;
  /** The desktop app's keychain-sealed secrets; default stateDir/secrets.json. */
  secrets?: SecretStore;
  oauth?: OAuthStore;
};

export function filesStateStore(o: FilesStoreOptions): StateStore {
  const agents = new AgentStateFiles(o.stateDir, o.log);
  const calls = new FileCalls(o.stateDir, { log: o.log, now: o.now });
  const config: ConfigDocumentStore = o.configPath
    ? new FileConfigDocument(o.configPath)
    : {
        label: 'no config file',
        read: async () => undefined,
        write: async () => {
          throw new MwsError('conflict', 'This run has no config file, so settings cannot be saved. Start it with --config FILE.');
        },
      };
  return {
    kind: 'files',
    config,
    agents,
    calls,
    secrets: o.secrets ?? new FileSecretStore(o.stateDir, o.log),
    oauth: o.oauth ?? new FileOAuthStore(o.stateDir, o.log),
    onChange: () => () => {},
    check: async () => {},
    close: async () => {
      await Promise.allSettled([calls.close(), agents.close()]);
    },
  };
}
