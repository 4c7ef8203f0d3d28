// Defaults for every optional field, and the text `mws init` writes.
import type { AgentConfig, Config } from './schema.js';
import { DEFAULT_AGENT_ID, DEFAULT_PORT } from './schema.js';
import { CONFIG_VERSION } from './migrate.js';

/** Per-agent rule defaults: a cap of 20 keeps a list well under the size where selection accuracy drops. */
export const DEFAULT_CAP = 20;
export const DEFAULT_IDLE_WINDOW_DAYS = 21;
/** Large enough for big file reads and screenshots; the SDK's own stdio limit is 10 MiB. */
/** Long enough that a conversation's turns (and a prompt cache's lifetime, ~5 min) fall inside it (workingset/quiet.ts). */
export const DEFAULT_QUIET_MINUTES = 10;
/** calls.jsonl rotates past this: ~80,000 calls at ~200 bytes each, months of use for most people. */
export const DEFAULT_ACTIVITY_MAX_FILE_MB = 16;
/** Inside the 60 s after which MCP SDK clients (and clients without progress handling) give up on a call. */
export const DEFAULT_APPROVAL_ANSWER_MS = 50_000;
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024;

export function defaultAgent(id: string = DEFAULT_AGENT_ID): AgentConfig {
  return {
    id,
    name: id === DEFAULT_AGENT_ID ? 'Default' : id,
    cap: DEFAULT_CAP,
    idleWindowDays: DEFAULT_IDLE_WINDOW_DAYS,
    approvals: 'ask',
    pins: [],
    token: undefined,
  };
}

export function defaultConfig(stateDir: string): Config {
  return {
    upstreams: {},
    prefixNames: true,
    listen: { host: '127.0.0.1', port: DEFAULT_PORT },
    stateDir,
    serverName: 'toolbox',
    backendHints: {},
    pins: [],
    pinFiles: [],
    promote: { minSessions: 2, minCalls: 1, windowDays: 30, keepDays: 60, pinDecayDays: 90 },
    transcripts: [],
    timeouts: { listMs: 5000, connectMs: 120_000, callMs: 120_000, catalogTtlMs: 30_000, approvalMs: 120_000, approvalAnswerMs: DEFAULT_APPROVAL_ANSWER_MS },
    maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
    compactDescriptions: false,
    searchAliases: {},
    search: { learn: true },
    agents: [defaultAgent()],
    defaultAgent: true,
    uiSessions: { idleMinutes: 120, maxHours: 24 },
    desktop: { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false },
    listChanges: { quietMinutes: DEFAULT_QUIET_MINUTES },
    activity: { recordArguments: false, maxFileMB: DEFAULT_ACTIVITY_MAX_FILE_MB },
  };
}

/** The sample upstream `mws init` writes; import replaces it, untouched, by a real server of its name. */
export const SAMPLE_UPSTREAMS: Readonly<Record<string, { command: string; args: string[] }>> = {
  everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
};

/**
 * What `mws init` writes: a small, commented-by-example starting point. `schemaUrl` (config.schema.json)
 * goes in `$schema`, so an editor completes and checks the file.
 */
export function initialConfigText(schemaUrl?: string): string {
  const sample = {
    ...(schemaUrl ? { $schema: schemaUrl } : {}),
    version: CONFIG_VERSION,
    upstreams: structuredClone(SAMPLE_UPSTREAMS),
    listen: { host: '127.0.0.1', port: DEFAULT_PORT },
    serverName: 'toolbox',
    pins: [],
    agents: [{ id: 'default', cap: DEFAULT_CAP, idleWindowDays: DEFAULT_IDLE_WINDOW_DAYS }],
  };
  return JSON.stringify(sample, null, 2) + '\n';
}
