// ControlApi: the one interface the tray, the settings window and the CLI use to see and steer the
// core. Transports (HTTP here, Electron IPC in the desktop shell) carry `{method, args}` and nothing else.
import type { SignInResult, UpstreamStatusView } from '../upstream/types.js';
import type { Cause, Decision, HistoryEntry, PinSource, PromoteCause } from '../workingset/types.js';
import type { UsageCandidate } from '../workingset/usagePromotion.js';
import type { GrantView, PendingView } from '../approvals/types.js';
import type { ApprovalMode } from '../config/schema.js';
import type { ImportResult, ImportSource, UpstreamInput } from '../import/types.js';
import type { ActivityEntry } from '../usage/activityTypes.js';
import type { EmbeddingStatus } from '../search/embed/types.js';

export type AgentView = { id: string; name: string; cap: number; idleWindowDays: number; approvals: ApprovalMode; size: number; url: string; hasToken?: boolean };

export type MemberRow = {
  tool: string;
  promotedBy: PromoteCause;
  promotedAt: string;
  lastUsedAt: string | null;
  pinned: PinSource | null;
  readOnly: boolean;
  destructive: boolean;
  /** Whether an upstream lists it now (a tool of a down upstream stays in the set). */
  available: boolean;
};

export type StatusView = {
  url: string;
  toolboxSize: number;
  upstreams: UpstreamStatusView[];
  agents: AgentView[];
  demotionPaused: boolean;
  proxyPaused: boolean;
  /** Calls of every agent waiting for the user's approval (the tray's and the window's badge). */
  pendingApprovals: number;
  /** A saved setting (port, state folder) takes effect only after a restart. */
  restartNeeded: boolean;
  /** False when settings cannot be saved (the demo without a config file). */
  editable: boolean;
  /** The built-in demo is being served (`npm run demo`, `mws serve --demo`): made-up tools, its own state folder. */
  demo?: { stateDir: string } | null;
  /** The sentence model beside BM25F: idle until search is first used; `warning` when it failed (search is lexical). */
  semanticSearch?: EmbeddingStatus;
};

export type { UpstreamInput } from '../import/types.js';
/** An upstream as the window shows it: its settings (header values masked) and its live status. */
export type UpstreamRow = UpstreamStatusView & { config: UpstreamInput | { builtin: string }; enabled?: boolean };

/** One line of an upstream's log view: its stderr or a connection event, with an ISO time. */
export type UpstreamLogLine = { ts: string; kind: 'stderr' | 'event'; text: string };
export type UpstreamLogView = { vendor: string; status: string; lines: UpstreamLogLine[] };
export type { ActivityEntry } from '../usage/activityTypes.js';

export type SettingsView = {
  port: number;
  compactDescriptions: boolean;
  promote: { minSessions: number; minCalls: number; windowDays: number; pinDecayDays: number };
  /** The desktop app's own preferences (desktop/prefs.ts), answered by its settings bridge; headless there are none. */
  desktop?: { notifyDemotions: boolean; notifyUpstreams: boolean; notifyApprovals: boolean; startAtLogin: boolean };
  configPath: string | null;
};

export type ClientConfigs = { url: string; claudeCode: string; codex: string; json: string };

export type CycleView = { decisions: Decision[]; usage: Record<string, UsageCandidate[]> };

export type AgentReport = {
  agent: string;
  name: string;
  cap: number;
  idleWindowDays: number;
  listed: MemberRow[];
  listedTools: number;
  listedBytes: number;
  listedTokens: number;
  toolboxTools: number;
  toolboxBytes: number;
  toolboxTokens: number;
  calls: Array<{ tool: string; ok: number; failed: number }>;
  searches: number;
  history: Partial<Record<Cause, { promote: number; demote: number }>>;
  /** Calls and searches per day, oldest first. */
  daily: Array<{ day: string; calls: number; searches: number }>;
  /** Call and search records that could not be written since the instance started (a full disk): not in the counts above. */
  droppedCallRecords: number;
};

export type SetChange = { size: number; changed: boolean; tool: string };

/** What `setUpstreamValue` did: where the value went and the upstream's status after connecting again. */
export type UpstreamValueSet = { vendor: string; key: string; stored: 'input' | 'secret'; secret: string; status: string; needs: string[]; lastError: string | null };

export interface ControlApi {
  status(args: Record<string, never>): Promise<StatusView>;
  workingSet(args: { agent: string }): Promise<MemberRow[]>;
  history(args: { agent: string; limit?: number }): Promise<HistoryEntry[]>;
  promote(args: { agent: string; tool: string }): Promise<SetChange>;
  demote(args: { agent: string; tool: string }): Promise<SetChange>;
  /** Usage promotion and the sweep: the decision table, applied unless `dryRun`. */
  cycle(args: { dryRun?: boolean; agents?: string[] }): Promise<CycleView>;
  /** What the sweep would decide at `now` (ISO time), changing nothing. */
  sweepPreview(args: { now: string; agents?: string[] }): Promise<Decision[]>;
  /** Calls waiting for the user, oldest first, of one agent or all. */
  pendingApprovals(args: { agent?: string }): Promise<PendingView[]>;
  /**
   * Answers waiting calls of a tool (or the one with `id`): allow and remember it for the agent (the
   * default), run them just this once (`once`), or deny them and withdraw any standing grant (`deny`).
   */
  approve(args: { agent: string; tool: string; deny?: boolean; once?: boolean; id?: string }): Promise<{ decided: number; remembered: boolean; tool: string; withdrawn: boolean }>;
  /** The tools each agent may run without asking. */
  grants(args: { agent?: string }): Promise<GrantView[]>;
  /** An upstream's tools as the toolbox has them, with their kind and the agents that list each. */
  upstreamTools(args: { vendor: string }): Promise<Array<{ name: string; description: string | null; kind: 'read-only' | 'write' | 'destructive'; agents: string[] }>>;
  /** Withdraws a standing grant: the tool asks again on its next call. */
  revokeGrant(args: { agent: string; tool: string }): Promise<{ tool: string; revoked: boolean }>;
  /**
   * The reply search_tools gives (`text`, what a model reads) and its hits as data, best first (`message`
   * when nothing matched); with `explain`, also which query word matched which field of each hit.
   */
  search(args: { agent: string; query?: string; limit?: number; explain?: boolean }): Promise<SearchView>;
  /** The words each tool was learned for from search→call pairs (one tool, or the tools with most). */
  learnedWords(args: { tool?: string; agent?: string }): Promise<LearnedWordsView>;
  /**
   * Forgets what was learned for a tool (every agent's pairs that led to it or away from it); with
   * `word`, only that word stops counting for the tool. `forgotten`: how many pairs changed.
   */
  forgetLearned(args: { tool: string; word?: string }): Promise<{ tool: string; word?: string; forgotten: number }>;
  report(args: { agent?: string }): Promise<AgentReport[]>;
  setDemotionPaused(args: { paused: boolean }): Promise<{ paused: boolean }>;
  setProxyPaused(args: { paused: boolean }): Promise<{ paused: boolean }>;
  createAgent(args: { id: string; name?: string; cap?: number; idleWindowDays?: number; approvals?: ApprovalMode }): Promise<AgentView>;
  updateAgent(args: { id: string; name?: string; cap?: number; idleWindowDays?: number; approvals?: ApprovalMode }): Promise<AgentView>;
  deleteAgent(args: { id: string }): Promise<{ deleted: string }>;
  /** Pins or unpins a tool for one agent (the agent's `pins` in the config). */
  pin(args: { agent: string; tool: string; pinned: boolean }): Promise<MemberRow[]>;
  /** Ready-to-paste client configs; `masked`: an agent token shown as •••• (the window displays these). */
  clientConfigs(args: { agent: string; masked?: boolean }): Promise<ClientConfigs>;
  upstreams(args: Record<string, never>): Promise<UpstreamRow[]>;
  /** Adds an upstream, or replaces the one named `vendor`. */
  saveUpstream(args: { vendor: string; upstream: UpstreamInput; leaveDemo?: boolean; /** Replaces the upstream saved under that name; without it, a taken name is refused (upstream_exists). */ replace?: boolean }): Promise<UpstreamRow[]>;
  removeUpstream(args: { vendor: string }): Promise<UpstreamRow[]>;
  /** `vendor`: the saved upstream being edited, whose secrets stand in for masked values. */
  testUpstream(args: { upstream: UpstreamInput; vendor?: string }): Promise<{ ok: boolean; era: string | null; tools: string[]; error: string | null }>;
  settings(args: Record<string, never>): Promise<SettingsView>;
  /** A one-time link that opens the settings window in a browser (headless). */
  uiLink(args: Record<string, never>): Promise<{ url: string }>;
  /** Ends every settings-window session in a browser (and forgets unspent links); answers how many ended. */
  uiRevokeAll(args: Record<string, never>): Promise<{ ended: number }>;
  /** Generates a new bearer token for an agent, saves it in the config and answers it (shown once). */
  agentToken(args: { agent: string }): Promise<{ agent: string; token: string; header: string }>;
  updateSettings(args: { port?: number; compactDescriptions?: boolean; promote?: Partial<SettingsView['promote']>; desktop?: Partial<NonNullable<SettingsView['desktop']>> }): Promise<SettingsView>;
  /**
   * Gives an upstream a value it needs (an `${input:ID}`, a variable the process lacks) or a secret
   * header/env value, kept in the secret store (config.json gets a reference), and connects it again.
   * The answer never holds the value.
   */
  setUpstreamValue(args: { vendor: string; key: string; value: string }): Promise<UpstreamValueSet>;
  /** The names of the values the secret store holds (never the values). */
  secretNames(args: Record<string, never>): Promise<{ names: string[] }>;
  /** Moves plain-text secret header and env values of config.json into the secret store (references stay). */
  migrateSecrets(args: Record<string, never>): Promise<{ moved: string[] }>;
  /** Turns an upstream off (kept in the config as `enabled: false`, its tools out of every list and search) or on again. */
  setUpstreamEnabled(args: { vendor: string; enabled: boolean }): Promise<UpstreamRow[]>;
  /** Restarts an upstream: a stdio server's process, an HTTP upstream's connection. */
  restartUpstream(args: { vendor: string }): Promise<UpstreamRow[]>;
  /** The last lines an upstream printed on stderr and its connection events, oldest first. */
  upstreamLog(args: { vendor: string; lines?: number }): Promise<UpstreamLogView>;
  /** The latest calls (agent, tool, upstream, duration, ok), newest first. */
  activity(args: { agent?: string; limit?: number }): Promise<ActivityEntry[]>;
  /** Other clients' config files on this machine (or the one named) and the servers in them; env and header values never leave the core. */
  importScan(args: { from?: string; file?: string; projectDir?: string }): Promise<ImportSource[]>;
  /** Adds the named servers of one client file as upstreams (after a backup of the config) and answers the client edit. */
  importServers(args: { file: string; names?: string[]; dryRun?: boolean; writeClient?: boolean; projectDir?: string; agent?: string; as?: Record<string, string> }): Promise<ImportResult>;
  /**
   * Signs in to an OAuth upstream: `waiting` with the authorization URL to open in a browser (it lands
   * on this instance's /oauth/callback), `signed-in` when it already is, `not-needed` when it asks for none.
   */
  signIn(args: { vendor: string }): Promise<SignInResult>;
  /** Signs out of an OAuth upstream: its tokens are revoked where the server supports it, and forgotten. */
  signOut(args: { vendor: string }): Promise<{ vendor: string; revoked: boolean }>;
}

/** One hit of a search as data (search/reply.ts's HitView without the schema; the window imports this file). */
export type SearchHit = { name: string; promoted: boolean; readOnlyHint: boolean; destructiveHint: boolean; description?: string };
/** A search as the window and the CLI show it. `kind` is how the query was read (search/service.ts's SearchAnswer). */
export type SearchView = { text: string; bytes: number; kind: 'exact' | 'backend' | 'ranked' | 'overview' | 'none'; hits: SearchHit[]; message?: string; explain?: ExplainedHit[] };

/** One search hit with the query words that matched it, and in which fields (`mws search --explain`). */
export type ExplainedHit = { tool: string; score: number; matches: Array<{ word: string; via: string; fields: string[] }> };
export type LearnedWordsView = { learning: boolean; tools: Array<{ tool: string; words: Array<{ word: string; weight: number }> }> };

export type ControlMethod = keyof ControlApi;
export type ControlArgs<M extends ControlMethod> = Parameters<ControlApi[M]>[0];
export type ControlResult<M extends ControlMethod> = Awaited<ReturnType<ControlApi[M]>>;

/** Every method, for transports that dispatch by name. */
export const CONTROL_METHODS: readonly ControlMethod[] = [
  'status', 'workingSet', 'history', 'promote', 'demote', 'cycle', 'sweepPreview', 'pendingApprovals', 'approve', 'search', 'report', 'setDemotionPaused',
  'setProxyPaused', 'createAgent', 'updateAgent', 'deleteAgent', 'pin', 'clientConfigs', 'upstreams', 'saveUpstream', 'removeUpstream', 'testUpstream', 'settings', 'updateSettings', 'uiLink',
  'uiRevokeAll', 'agentToken',
  'learnedWords', 'forgetLearned',
  'importScan', 'importServers', 'grants', 'revokeGrant', 'upstreamTools',
  'setUpstreamValue', 'secretNames', 'migrateSecrets',
  'setUpstreamEnabled', 'restartUpstream', 'upstreamLog', 'activity',
  'signIn', 'signOut',
] as const;

export function isControlMethod(name: string): name is ControlMethod {
  return (CONTROL_METHODS as readonly string[]).includes(name);
}
