// What a decision does to an agent's state, as plain mutators of the state given: the cycle runs
// them on its own copy to decide, and the manager on the real state to apply.
import type { PinChange } from './pins.js';
import type { AgentState, Decision, ToolState } from './types.js';

/** What a promotion records about a tool it did not know: its vendor and last use. */
export type PromotionFacts = (tool: string, d: Decision) => { vendor: string; lastUsedAt: number | null };

/** Promote adds the tool, demote removes it and remembers when; answers whether the state changed. */
export function applyDecision(st: AgentState, d: Decision, now: number, facts: PromotionFacts): boolean {
  if (d.action === 'promote') {
    if (st.tools[d.tool]) return false;
    const f = facts(d.tool, d);
    st.tools[d.tool] = {
      vendor: f.vendor,
      promotedBy: d.cause as ToolState['promotedBy'],
      promotedAt: now,
      lastUsedAt: f.lastUsedAt,
      ...(d.pinned ? { pinned: d.pinned } : {}),
    };
    return true;
  }
  if (!st.tools[d.tool]) return false;
  delete st.tools[d.tool];
  st.demotedAt[d.tool] = now;
  return true;
}

/** An unpin or repin marks a member; answers whether the state changed. */
export function applyPinMark(st: AgentState, c: Extract<PinChange, { action: 'unpin' | 'repin' }>): boolean {
  const t = st.tools[c.tool];
  if (!t) return false;
  if (c.action === 'unpin') delete t.pinned;
  else t.pinned = c.pinned;
  return true;
}

export function isPinMark(c: PinChange): c is Extract<PinChange, { action: 'unpin' | 'repin' }> {
  return c.action === 'unpin' || c.action === 'repin';
}
