// The sweep rule, as a pure function: (state, settings, now) → demotions. Idle first, then the cap.
// Hand-written: the rule is the product's own (docs/rules/sweep.md).
import { DAY_MS } from '../clock.js';
import type { AgentState, Decision } from './types.js';
import { byCodeUnit } from '../../shared/codeUnitOrder.js';

export type SweepSettings = {
  cap: number;
  idleWindowDays: number;
  /** Vendors currently configured: a tool of any other vendor leaves with cause `revoked`. */
  vendors: ReadonlySet<string>;
};

export type SweepContext = {
  /** A call in flight (or waiting for approval) skips the agent until the next sweep. */
  busy: boolean;
};

export function decideSweep(agent: string, state: AgentState, s: SweepSettings, now: number, ctx: SweepContext): Decision[] {
  if (ctx.busy) return [];
  const out: Decision[] = [];
  const windowStart = now - s.idleWindowDays * DAY_MS;
  const remaining: Array<[string, AgentState['tools'][string]]> = [];

  for (const [tool, t] of Object.entries(state.tools)) {
    if (!s.vendors.has(t.vendor)) {
      out.push({ agent, tool, action: 'demote', cause: 'revoked' });
      continue;
    }
    if (t.pinned) {
      remaining.push([tool, t]);
      continue;
    }
    // Idle counts from the last successful use, or from the promotion when not used since it.
    const lastActivity = Math.max(t.promotedAt, t.lastUsedAt ?? 0);
    if (lastActivity < windowStart) {
      out.push({ agent, tool, action: 'demote', cause: 'idle' });
      continue;
    }
    remaining.push([tool, t]);
  }

  let excess = remaining.length - s.cap;
  if (excess > 0) {
    // Only tools promoted inside the window and not used since (nor inside the window) are candidates:
    // the cap never takes away a tool in use, so a set of busy tools may sit above it.
    const candidates = remaining
      .filter(
        ([, t]) =>
          !t.pinned &&
          t.promotedAt >= windowStart &&
          (t.lastUsedAt === null || (t.lastUsedAt < t.promotedAt && t.lastUsedAt < windowStart)),
      )
      .sort((a, b) => a[1].promotedAt - b[1].promotedAt || byCodeUnit(a[0], b[0]));
    for (const [tool] of candidates) {
      if (excess <= 0) break;
      out.push({ agent, tool, action: 'demote', cause: 'cap' });
      excess--;
    }
  }
  return out;
}
