// The state the running app keeps open or rewrites: secrets, the call log, the seed working set, usage
// and the per-agent states. With a shared store (statestore/, PostgreSQL) the agents' states, secrets
// and sign-ins live there and every call record goes there too; usage, the seed file and the local
// calls.jsonl (which usage promotion reads) stay in this replica's state folder.
import type { SecretStore } from '../secrets/store.js';
import { FileSecretStore } from '../secrets/store.js';
import { CallLog, MIB, type CallRecorder, type CallRecord, type SearchRecord } from '../usage/callLog.js';
import { boundCallRecord, boundSearchRecord } from '../usage/callRecordBounds.js';
import { UsageStore } from '../usage/usageStore.js';
import { SeedWorkingSetFile } from '../workingset/seedFile.js';
import { AgentStateFiles, type AgentStateStore } from '../workingset/stateFiles.js';
import type { LearningFeed } from '../search/learningFeed.js';
import type { StateStore } from '../statestore/port.js';
import type { AppContext } from './context.js';

export type Stores = {
  secrets: SecretStore;
  /** This replica's calls.jsonl (rotated as it is written, read by usage promotion). */
  callLog: CallLog;
  /** Where each call and search is recorded: the local log, and the shared store when there is one. */
  recorder: CallRecorder;
  seed: SeedWorkingSetFile;
  usage: UsageStore;
  files: AgentStateStore;
  /** The fleet's learned-search feed (shared stores only). */
  learningFeed?: LearningFeed;
};

/** Both logs get every record; a record either could not write is counted once, by the one that dropped it. */
class BothLogs implements CallRecorder {
  constructor(private readonly logs: CallRecorder[]) {}
  // Cut here too, so the shared store keeps no more of what a client sent than the local file.
  call(r: CallRecord): void | Promise<void> {
    const b = boundCallRecord(r);
    const committed = this.logs.map((l) => l.call(b)).filter((p) => p !== undefined);
    if (committed.length) return Promise.all(committed).then(() => {});
  }
  search(r: SearchRecord): void {
    const b = boundSearchRecord(r);
    this.logs.forEach((l) => l.search(b));
  }
  droppedRecords(agent?: string): number {
    return this.logs.reduce((n, l) => n + l.droppedRecords(agent), 0);
  }
  async flush(): Promise<void> {
    await Promise.all(this.logs.map((l) => l.flush()));
  }
  async close(): Promise<void> {
    await Promise.allSettled(this.logs.map((l) => l.close()));
  }
}

export function buildStores(ctx: AppContext, secrets: SecretStore | undefined, shared?: StateStore): Stores {
  const { stateDir } = ctx.config;
  const callLog = new CallLog(stateDir, { log: ctx.log, now: ctx.now, maxBytes: () => ctx.config.activity.maxFileMB * MIB });
  return {
    secrets: secrets ?? shared?.secrets ?? new FileSecretStore(stateDir, ctx.log),
    callLog,
    recorder: shared ? new BothLogs([callLog, shared.calls]) : callLog,
    seed: new SeedWorkingSetFile(stateDir, ctx.log),
    // The fleet's calls, read once each from the shared log (the local calls.jsonl would count only these).
    usage: new UsageStore(
      stateDir,
      ctx.log,
      shared?.calls.since ? { since: (after, limit) => shared.calls.since!(after, limit) } : undefined,
    ),
    files: shared?.agents ?? new AgentStateFiles(stateDir, ctx.log),
    ...(shared?.learning ? { learningFeed: shared.learning } : {}),
  };
}
