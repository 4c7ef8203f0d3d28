// The state folder's files the running app keeps open or rewrites: secrets, the call log, the seed
// working set, usage and the per-agent state files.
import type { SecretStore } from '../secrets/store.js';
import { FileSecretStore } from '../secrets/store.js';
import { CallLog } from '../usage/callLog.js';
import { UsageStore } from '../usage/usageStore.js';
import { SeedWorkingSetFile } from '../workingset/seedFile.js';
import { AgentStateFiles } from '../workingset/stateFiles.js';
import type { AppContext } from './context.js';

export type Stores = { secrets: SecretStore; callLog: CallLog; seed: SeedWorkingSetFile; usage: UsageStore; files: AgentStateFiles };

export function buildStores(ctx: AppContext, secrets: SecretStore | undefined): Stores {
  const { stateDir } = ctx.config;
  return {
    secrets: secrets ?? new FileSecretStore(stateDir, ctx.log),
    callLog: new CallLog(stateDir, { log: ctx.log, now: ctx.now }),
    seed: new SeedWorkingSetFile(stateDir, ctx.log),
    usage: new UsageStore(stateDir, ctx.log),
    files: new AgentStateFiles(stateDir, ctx.log),
  };
}
