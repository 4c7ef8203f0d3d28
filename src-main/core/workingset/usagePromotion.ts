// Usage promotion, as a pure function: a tool with successful calls in enough distinct work sessions
// (usage/sessions.ts: runs of the agent's calls, not client processes) within the window comes into the
// agent's set. Only calls after the tool last left the set count.
import type { PromoteSettings } from '../config/schema.js';
import { DAY_MS } from '../clock.js';
import type { AgentState, Decision } from './types.js';
import type { AgentUsage, SessionUse } from '../usage/types.js';
import { countWorkSessions, type Run } from '../usage/sessions.js';
import { byCodeUnit } from '../../shared/codeUnitOrder.js';

export type UsageCandidate = { tool: string; sessions: number; calls: number; lastUse: number; promote: boolean; reason: string };

/**
 * Scores every tool the agent used against the thresholds. `known` maps tool name → vendor for tools
 * the upstreams list now: names they no longer list are never promoted.
 */
export function scoreUsage(
  usage: AgentUsage,
  state: AgentState,
  s: PromoteSettings,
  idleWindowDays: number,
  known: ReadonlyMap<string, string>,
  now: number,
  /** The agent's work sessions (usage/sessions.ts); without them each entry's own times are grouped by the gap. */
  runs: readonly Run[] = [],
): UsageCandidate[] {
  // A promoted tool must not be idle at once: its last use has to be inside the agent's idle window too.
  const windowStart = now - Math.min(s.windowDays, idleWindowDays) * DAY_MS;
  const out: UsageCandidate[] = [];
  for (const [tool, sessions] of Object.entries(usage)) {
    const since = Math.max(windowStart, (state.demotedAt[tool] ?? -Infinity) + 1);
    let calls = 0;
    let lastUse = 0;
    const inWindow: SessionUse[] = [];
    for (const u of Object.values(sessions)) {
      if (u.last < since) continue;
      inWindow.push(u);
      // Calls of a session that straddles `since` count in full: the session was alive after it.
      calls += u.calls;
      lastUse = Math.max(lastUse, u.last);
    }
    const n = countWorkSessions(inWindow, runs);
    if (n === 0) continue;
    let reason: string;
    let promote = false;
    if (state.tools[tool]) reason = 'already in the set';
    else if (!known.has(tool)) reason = 'no upstream lists it now';
    else if (n < s.minSessions) reason = `${n} of ${s.minSessions} sessions`;
    else if (calls < s.minCalls) reason = `${calls} of ${s.minCalls} calls`;
    else {
      promote = true;
      reason = `${n} sessions, ${calls} calls`;
    }
    out.push({ tool, sessions: n, calls, lastUse, promote, reason });
  }
  return out.sort((a, b) => Number(b.promote) - Number(a.promote) || b.sessions - a.sessions || byCodeUnit(a.tool, b.tool));
}

/**
 * The usage promotion rule whole: every used tool scored (distinct sessions and calls inside the window,
 * counted only after the tool last left the set), and the ones that pass come in, with their vendor.
 */
export function decideUsagePromotions(
  agent: string,
  usage: AgentUsage,
  state: AgentState,
  s: PromoteSettings,
  idleWindowDays: number,
  known: ReadonlyMap<string, string>,
  now: number,
  runs: readonly Run[] = [],
): { candidates: UsageCandidate[]; decisions: Decision[] } {
  const candidates = scoreUsage(usage, state, s, idleWindowDays, known, now, runs);
  const decisions: Decision[] = candidates
    .filter((c) => c.promote)
    .map((c) => ({ agent, tool: c.tool, action: 'promote', cause: 'usage', vendor: known.get(c.tool)! }));
  return { candidates, decisions };
}
