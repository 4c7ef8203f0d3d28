// The files adapter of the state port: today's state folder and config file, byte for byte as before.
// One process owns the folder (its lock), so there are no other writers to hear of.
import { MwsError } from '../errors.js';
import { FileConfigSource } from '../config/source.js';
import type { Logger } from '../log.js';
import { FileSecretStore, type SecretStore } from '../secrets/store.js';
import { FileOAuthStore, type OAuthStore } from '../upstream/oauth/store.js';
import { recentCalls } from '../usage/activity.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import { CallLog, type CallRecord, type SearchRecord } from '../usage/callLog.js';
import { AgentStateFiles } from '../workingset/stateFiles.js';
import type { CallRecordStore, ConfigDocumentStore, Raw, StateStore, StoredConfig } from './port.js';

/** The config file as the port's document: the editor's file source, its versions and its conflicts. */
export class FileConfigDocument implements ConfigDocumentStore {
  private readonly file: FileConfigSource;
  constructor(path: string) {
    this.file = new FileConfigSource(path);
  }
  get label(): string {
    return this.file.label;
  }
  async read(): Promise<StoredConfig | undefined> {
    const r = await this.file.read();
    return r.version === null ? undefined : { raw: r.raw, version: r.version };
  }
  write(raw: Raw, expected: string | null): Promise<string> {
    return this.file.write(raw, expected, false);
  }
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
