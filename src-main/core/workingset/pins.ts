// Pin reconciliation, as a pure function: which pins enter the set, which stop being pins, and which
// pin-file pins decayed (unused for pinDecayDays).
import { DAY_MS } from '../clock.js';
import type { AgentState, Decision, PinSource } from './types.js';

export type PinInput = {
  /** Config pins (global and the agent's) and the seed file: never decay. */
  fixed: ReadonlyMap<string, Exclude<PinSource, 'file'>>;
  /** Pin-file pins with when each was first seen: decay when unused for pinDecayDays. */
  files: ReadonlyMap<string, number>;
  pinDecayDays: number;
};

export type PinChange =
  Decision | { agent: string; tool: string; action: 'unpin' } | { agent: string; tool: string; action: 'repin'; pinned: PinSource };

export function reconcilePins(
  agent: string,
  state: AgentState,
  pins: PinInput,
  known: ReadonlyMap<string, string>,
  now: number,
): PinChange[] {
  const out: PinChange[] = [];
  const decayStart = now - pins.pinDecayDays * DAY_MS;
  const active = new Map<string, PinSource>();
  const decayed = new Set<string>();
  for (const [tool, source] of pins.fixed) active.set(tool, source);
  for (const [tool, firstSeen] of pins.files) {
    if (active.has(tool)) continue;
    const lastUse = Math.max(firstSeen, state.tools[tool]?.lastUsedAt ?? 0);
    if (lastUse >= decayStart) active.set(tool, 'file');
    else decayed.add(tool);
  }
  for (const [tool, source] of active) {
    const t = state.tools[tool];
    if (!t) {
      const vendor = known.get(tool);
      if (vendor !== undefined) out.push({ agent, tool, action: 'promote', cause: 'pin', vendor, pinned: source });
    } else if (t.pinned !== source) {
      out.push({ agent, tool, action: 'repin', pinned: source });
    }
  }
  for (const [tool, t] of Object.entries(state.tools)) {
    if (!t.pinned || active.has(tool)) continue;
    // A pin-file pin unused for pinDecayDays drops off: an old skill must not hold a slot forever.
    if (t.pinned === 'file' && decayed.has(tool)) out.push({ agent, tool, action: 'demote', cause: 'idle' });
    // A pin taken out of the config leaves an ordinary member: the idle rule decides from here.
    else out.push({ agent, tool, action: 'unpin' });
  }
  return out;
}
