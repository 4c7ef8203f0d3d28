// ControlApi: the one interface the tray, the settings window and the CLI use to see and steer the
// core. Transports (HTTP here, Electron IPC in the desktop shell) carry `{method, args}` and nothing else.
import type { UpstreamStatusView } from '../upstream/catalog.js';
import type { Cause, Decision, HistoryEntry, PinSource, PromoteCause } from '../workingset/types.js';
import type { UsageCandidate } from '../workingset/usagePromotion.js';
import type { PendingCall } from '../approvals/pending.js';
import type { ApprovalMode } from '../config/schema.js';

export type AgentView = { id: string; name: string; cap: number; idleWindowDays: number; approvals: ApprovalMode; size: number; url: string };

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
};

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
};

export type SetChange = { size: number; changed: boolean; tool: string };

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
  pendingApprovals(args: { agent?: string }): Promise<PendingCall[]>;
  /** Allows (or denies) a tool for an agent: answers waiting calls and, when allowing, remembers it. */
  approve(args: { agent: string; tool: string; deny?: boolean }): Promise<{ decided: number; remembered: boolean; tool: string }>;
  search(args: { agent: string; query?: string; limit?: number }): Promise<{ text: string; bytes: number }>;
  report(args: { agent?: string }): Promise<AgentReport[]>;
  setDemotionPaused(args: { paused: boolean }): Promise<{ paused: boolean }>;
}

export type ControlMethod = keyof ControlApi;
export type ControlArgs<M extends ControlMethod> = Parameters<ControlApi[M]>[0];
export type ControlResult<M extends ControlMethod> = Awaited<ReturnType<ControlApi[M]>>;

/** Every method, for transports that dispatch by name. */
export const CONTROL_METHODS: readonly ControlMethod[] = [
  'status', 'workingSet', 'history', 'promote', 'demote', 'cycle', 'sweepPreview', 'pendingApprovals', 'approve', 'search', 'report', 'setDemotionPaused',
] as const;

export function isControlMethod(name: string): name is ControlMethod {
  return (CONTROL_METHODS as readonly string[]).includes(name);
}
