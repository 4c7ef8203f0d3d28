// The config file's shape after validation: every field filled, defaults applied.

/** `enabled: false` (only ever present as false): kept in the config but turned off. */
type Switch = { enabled?: false };
/** A pre-registered OAuth client, the scope to ask for, and a client ID metadata document URL. */
export type OAuthUpstreamConfig = { clientId?: string; clientSecret?: string; scope?: string; clientMetadataUrl?: string };
/** `auto`: Streamable HTTP first, then the old HTTP+SSE transport. */
export type HttpTransportChoice = 'auto' | 'streamable-http' | 'sse';
/**
 * Header and env values may hold references (`${secret:NAME}`, `${input:ID}`, `${env:NAME}`) resolved only
 * when connecting (secrets/refs.ts). `bearerTokenEnvVar`: Codex's `bearer_token_env_var`.
 */
export type HttpUpstreamConfig = {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  bearerTokenEnvVar?: string;
  /** Default `auto`. */
  transport?: HttpTransportChoice;
  /** OAuth settings; `false`: a 401 is never answered by signing in. Absent: sign in with dynamic registration. */
  oauth?: OAuthUpstreamConfig | false;
} & Switch;
export type StdioUpstreamConfig = {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  /** A dotenv file read at connect time (absolute; `mws import` makes a client's relative one so). */
  envFile?: string;
} & Switch;
/** An upstream served in-process by the app itself (the demo toolbox). */
export type BuiltinUpstreamConfig = { kind: 'builtin'; name: 'demo' } & Switch;
export type UpstreamConfig = HttpUpstreamConfig | StdioUpstreamConfig | BuiltinUpstreamConfig;

export type ApprovalMode = 'ask' | 'allow' | 'read-only';

export type AgentConfig = {
  id: string;
  name: string;
  cap: number;
  idleWindowDays: number;
  approvals: ApprovalMode;
  pins: string[];
  /** When set, requests to this agent's endpoint must carry `Authorization: Bearer <token>`. */
  token: string | undefined;
};

/** How long a settings-window session in a browser lasts: idle limit, and absolute limit from login. */
export type UiSessionSettings = { idleMinutes: number; maxHours: number };

export type PromoteSettings = {
  minSessions: number;
  minCalls: number;
  windowDays: number;
  keepDays: number;
  pinDecayDays: number;
};

/** A client's transcripts, and the agent whose calls they hold (its endpoint is what the client uses). */
export type TranscriptSource = { type: 'claude-code'; root: string; agent: string };

/**
 * `connectMs` bounds one upstream start (spawn + initialize); `listMs` only how long a list waits for it.
 * `approvalMs`: how long a call waits in the inbox; `approvalAnswerMs`: how long its client is kept waiting.
 */
export type Timeouts = { listMs: number; connectMs: number; callMs: number; catalogTtlMs: number; approvalMs: number; approvalAnswerMs: number };

/** Desktop-only preferences; the headless core stores them but does not act on them. */
export type DesktopSettings = { notifyDemotions: boolean; notifyUpstreams: boolean; notifyApprovals: boolean; startAtLogin: boolean };

export type Config = {
  /**
   * Upstreams keyed by vendor. `prefixNames` is false only for the seed-style single `upstream`,
   * whose tools keep their own names.
   */
  upstreams: Record<string, UpstreamConfig>;
  prefixNames: boolean;
  listen: { host: string; port: number };
  stateDir: string;
  serverName: string;
  backendHints: Record<string, string>;
  pins: string[];
  pinFiles: string[];
  promote: PromoteSettings;
  transcripts: TranscriptSource[];
  timeouts: Timeouts;
  /** The largest upstream result forwarded (stdio); a larger one is answered with a sentence. */
  maxResultBytes: number;
  compactDescriptions: boolean;
  searchAliases: Record<string, string[]>;
  /**
   * Search settings: `learn` records search→call pairs and ranks with the words learned from them;
   * `shareLearning` lets agents learn from each other (undefined: only while no agent has a token;
   * see search/learningScope.ts).
   */
  search: { learn: boolean; shareLearning?: boolean };
  agents: AgentConfig[];
  /** false: `/mcp` (the default agent) is not served, so only the configured agents' endpoints are open. */
  defaultAgent: boolean;
  uiSessions: UiSessionSettings;
  desktop: DesktopSettings;
  /** The activity log: `recordArguments` keeps arguments and results too; calls.jsonl rotates past `maxFileMB`. */
  activity: { recordArguments: boolean; maxFileMB: number };
  /** When the rules may change a list: scheduled sweeps and usage promotions wait until the agent sent nothing for `quietMinutes` (0: at once). */
  listChanges: { quietMinutes: number };
};

export const DEFAULT_PORT = 4484;
export const DEFAULT_AGENT_ID = 'default';
/** The vendor key the seed-style single `upstream` is stored under. */
export const SINGLE_UPSTREAM_KEY = 'upstream';
