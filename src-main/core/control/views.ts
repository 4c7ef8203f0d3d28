// The ControlApi's answers as the window, the tray and the CLI read them. The methods themselves (their
// arguments and which of these each answers) are declared once, in contract.ts, which reads these.
import type { UpstreamStatusView } from '../upstream/types.js';
import type { Cause, Decision, PinSource, PromoteCause } from '../workingset/types.js';
import type { UsageCandidate } from '../workingset/usagePromotion.js';
import type { ApprovalMode } from '../config/schema.js';
import type { UpstreamInput } from '../import/types.js';
import type { EmbeddingStatus } from '../search/embed/types.js';

export type AgentView = {
  id: string;
  name: string;
  cap: number;
  idleWindowDays: number;
  approvals: ApprovalMode;
  size: number;
  url: string;
  hasToken?: boolean;
};

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
  /**
   * The version of the config document in force: sent back as If-Match with an edit, it makes the edit
   * refused (409) when someone else changed the config meanwhile. Null: no document stored yet.
   */
  configVersion?: string | null;
  /**
   * The version of the config document whose settings run now (configVersion may be a later one that was
   * refused); absent when not known. A CLI finding the file at this version knows it is valid.
   */
  configInForce?: string;
  /** Why the config document as it is now is not in force (an edit by hand broke it, or it cannot be read): the last good settings still run. */
  configProblem?: string;
  /** The built-in demo is being served (`npm run demo`, `mws serve --demo`): made-up tools, its own state folder. */
  demo?: { stateDir: string } | null;
  /** The sentence model beside BM25F: idle until search is first used; `warning` when it failed (search is lexical). */
  semanticSearch?: EmbeddingStatus;
  /** The operator asking, when signed in through the team's provider (the CLI and window say who they are). */
  operator?: { name: string; role: 'admin' | 'approver' | 'viewer' };
};

export type { UpstreamInput } from '../import/types.js';
/** An upstream as the window shows it: its settings (header values masked) and its live status. */
export type UpstreamRow = UpstreamStatusView & { config: UpstreamInput | { builtin: string }; enabled?: boolean };

/** One line of an upstream's log view: its stderr or a connection event, with an ISO time. */
export type UpstreamLogLine = { ts: string; kind: 'stderr' | 'event'; text: string };
/** `auth`: for an OAuth upstream, whether it is signed in, and whether a sign-in it had was lost (sign in again). */
export type UpstreamLogView = { vendor: string; status: string; auth?: { signedIn: boolean; lost?: boolean }; lines: UpstreamLogLine[] };
export type { ActivityEntry } from '../usage/activityTypes.js';

export type SettingsView = {
  port: number;
  compactDescriptions: boolean;
  promote: { minSessions: number; minCalls: number; windowDays: number; pinDecayDays: number };
  /** The desktop app's own preferences (desktop/prefs.ts), answered by its settings bridge; headless there are none. */
  desktop?: { notifyDemotions: boolean; notifyUpstreams: boolean; notifyApprovals: boolean; startAtLogin: boolean; remote: string };
  configPath: string | null;
  /** The bounds the config schema sets for the numbers the window's forms edit, so a label or an input never restates them. */
  bounds: Record<BoundedField, { min?: number; max?: number }>;
};

export type BoundedField = 'cap' | 'idleWindowDays' | 'port' | 'minSessions' | 'minCalls' | 'windowDays' | 'pinDecayDays';

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
export type UpstreamValueSet = {
  vendor: string;
  key: string;
  stored: 'input' | 'secret';
  secret: string;
  status: string;
  needs: string[];
  lastError: string | null;
};

/** One hit of a search as data (search/reply.ts's HitView without the schema; the window imports this file). */
export type SearchHit = { name: string; promoted: boolean; readOnlyHint: boolean; destructiveHint: boolean; description?: string };
/** A search as the window and the CLI show it. `kind` is how the query was read (search/service.ts's SearchAnswer). */
export type SearchView = {
  text: string;
  bytes: number;
  kind: 'exact' | 'backend' | 'ranked' | 'overview' | 'none';
  hits: SearchHit[];
  message?: string;
  explain?: ExplainedHit[];
};

/** One search hit with the query words that matched it, and in which fields (`mws search --explain`). */
export type ExplainedHit = { tool: string; score: number; matches: Array<{ word: string; via: string; fields: string[] }> };
export type LearnedWordsView = { learning: boolean; tools: Array<{ tool: string; words: Array<{ word: string; weight: number }> }> };
