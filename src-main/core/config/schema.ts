// The config file's shape after validation: every field filled, defaults applied.

/** A pre-registered OAuth client, the scope to ask for, and a client ID metadata document URL. */
export type OAuthUpstreamConfig = { clientId?: string; clientSecret?: string; scope?: string; clientMetadataUrl?: string };
/** `auto`: Streamable HTTP first, then the old HTTP+SSE transport. */
export type HttpTransportChoice = 'auto' | 'streamable-http' | 'sse';
export type HttpUpstreamConfig = {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  /** Default `auto`. */
  transport?: HttpTransportChoice;
  /** OAuth settings; `false`: a 401 is never answered by signing in. Absent: sign in with dynamic registration. */
  oauth?: OAuthUpstreamConfig | false;
};
export type StdioUpstreamConfig = {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
};
/** An upstream served in-process by the app itself (the demo toolbox). */
export type BuiltinUpstreamConfig = { kind: 'builtin'; name: 'demo' };
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

/** `connectMs` bounds one upstream start (spawn + initialize); `listMs` only how long a list waits for it. */
export type Timeouts = { listMs: number; connectMs: number; callMs: number; catalogTtlMs: number; approvalMs: number };

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
  /** Search settings: `learn` records search→call pairs and ranks with the words learned from them. */
  search: { learn: boolean };
  agents: AgentConfig[];
  /** false: `/mcp` (the default agent) is not served, so only the configured agents' endpoints are open. */
  defaultAgent: boolean;
  uiSessions: UiSessionSettings;
  desktop: DesktopSettings;
};

export const DEFAULT_PORT = 4484;
export const DEFAULT_AGENT_ID = 'default';
/** The vendor key the seed-style single `upstream` is stored under. */
export const SINGLE_UPSTREAM_KEY = 'upstream';
