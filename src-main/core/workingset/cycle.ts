// One agent's pass of the rules as a pure function: pins reconciled, usage promotions, then the sweep,
// each seeing the ones before. It works on its own copy of the state, so a dry run and the real cycle
// decide alike and the state given is never touched; the manager applies what it answers.
import type { PromoteSettings } from '../config/schema.js';
import type { AgentUsage } from '../usage/types.js';
import type { Run } from '../usage/sessions.js';
import { applyDecision, applyPinMark, isPinMark, type PromotionFacts } from './apply.js';
import { reconcilePins, type PinChange } from './pins.js';
import { decideSweep } from './sweep.js';
import { cloneAgentState, type AgentState, type Decision, type PinSource } from './types.js';
import { decideUsagePromotions, type UsageCandidate } from './usagePromotion.js';
import { holdWhileActive } from './quiet.js';

export type CycleInputs = {
  fixed: Map<string, Exclude<PinSource, 'file'>>;
  /** Pin files' tools with when each was first seen. */
  files: Map<string, number>;
  promote: PromoteSettings;
  usage: AgentUsage;
  /** The agent's work sessions, which usage promotion counts (usage/sessions.ts). */
  runs?: readonly Run[];
  cap: number;
  idleWindowDays: number;
  /** Configured vendors whose access is not revoked. */
  vendors: ReadonlySet<string>;
  busy: boolean;
  /** False while demotion is paused: the sweep decides nothing. */
  sweep: boolean;
  /** Tool name → vendor for what the upstreams list now. */
  known: ReadonlyMap<string, string>;
  facts: PromotionFacts;
  /** False while the agent is active (quiet.ts): promotions and idle/cap demotions are held. Default true. */
  quiet?: boolean;
};

/** `held`: what the rules decided but left for when the agent is quiet. */
export type AgentCycle = {
  pinChanges: PinChange[];
  promotions: Decision[];
  demotions: Decision[];
  held: Decision[];
  usage: UsageCandidate[];
};

export function decideCycle(agent: string, state: AgentState, i: CycleInputs, now: number): AgentCycle {
  const draft = cloneAgentState(state);
  const pinChanges = reconcilePins(agent, draft, { fixed: i.fixed, files: i.files, pinDecayDays: i.promote.pinDecayDays }, i.known, now);
  for (const c of pinChanges) {
    if (isPinMark(c)) applyPinMark(draft, c);
    else applyDecision(draft, c, now, i.facts);
  }
  const { candidates, decisions: promoted } = decideUsagePromotions(
    agent,
    i.usage,
    draft,
    i.promote,
    i.idleWindowDays,
    i.known,
    now,
    i.runs,
  );
  for (const d of promoted) applyDecision(draft, d, now, i.facts);
  const swept = i.sweep
    ? decideSweep(agent, draft, { cap: i.cap, idleWindowDays: i.idleWindowDays, vendors: i.vendors }, now, { busy: i.busy })
    : [];
  // Decided on the draft with the promotions in (so the cap sees them), then held together if active.
  const { promotions, demotions, held } = holdWhileActive(promoted, swept, i.quiet ?? true);
  return { pinChanges, promotions, demotions, held, usage: candidates };
}
