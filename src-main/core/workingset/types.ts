// Per-agent working-set state and the decisions the rules make about it.
import { dict, toDict } from '../../shared/reservedNames.js';

export type PromoteCause = 'agent' | 'user' | 'usage' | 'pin';
export type DemoteCause = 'agent' | 'user' | 'idle' | 'cap' | 'revoked';
export type Cause = PromoteCause | DemoteCause;

/** Where a pin comes from: the config, a pin file's front matter, or the seed working-set file. */
export type PinSource = 'config' | 'file' | 'seed';

export type ToolState = {
  vendor: string;
  promotedBy: PromoteCause;
  /** ms since epoch */
  promotedAt: number;
  /** Last successful call by this agent, ms since epoch; null when never called since it was promoted. */
  lastUsedAt: number | null;
  pinned?: PinSource;
};

export type AgentState = {
  tools: Record<string, ToolState>;
  /**
   * When each tool last left the set, by any cause. Usage counts only calls after it, so a tool comes
   * back only on fresh use: a demotion is not undone by the very calls that came before it.
   */
  demotedAt: Record<string, number>;
  /** Remembered approvals: the definition hash the user allowed, when, and which operator (if one signed in) did. */
  approvals: Record<string, { hash: string; at: number; by?: string }>;
};

export type Decision = { agent: string; tool: string; action: 'promote' | 'demote'; cause: Cause; vendor?: string; pinned?: PinSource };

/** `by`: the operator who made the change, when one signed in through the team's identity provider did. */
export type HistoryEntry = { ts: string; tool: string; action: 'promote' | 'demote'; cause: Cause; by?: string };
/** A history line as stored: the entry, and the vendor of its tool when known. */
export type StoredHistoryEntry = HistoryEntry & { vendor?: string };

export const emptyAgentState = (): AgentState => ({ tools: dict(), demotedAt: dict(), approvals: dict() });

/** A deep copy that keeps the maps null-prototype (structuredClone would give them Object's prototype back). */
export const cloneAgentState = (st: AgentState): AgentState => agentStateFrom(structuredClone(st));

/** A state read from a file or the database, its maps keyed by tool names made null-prototype (reservedNames.ts). */
export const agentStateFrom = (st: Partial<AgentState>): AgentState => ({
  ...st,
  tools: toDict(st.tools),
  demotedAt: toDict(st.demotedAt),
  approvals: toDict(st.approvals),
});
