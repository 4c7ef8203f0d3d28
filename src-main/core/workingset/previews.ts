// What the rules would decide, read without changing anything: the sweep alone at a given time, and the
// usage scores. (The whole cycle as a dry run is WorkingSets.sweepPreview: decideCycle on a copy.)
import type { PromoteSettings } from '../config/schema.js';
import type { AgentUsage } from '../usage/types.js';
import type { Run } from '../usage/sessions.js';
import type { AgentStates } from './registry.js';
import { decideSweep } from './sweep.js';
import type { Decision } from './types.js';
import { scoreUsage, type UsageCandidate } from './usagePromotion.js';

/** What the sweep would decide at `now` for each agent named. */
export function previewSweep(
  states: AgentStates,
  ids: string[],
  vendors: ReadonlySet<string>,
  busy: (agent: string) => boolean,
  now: number,
): Decision[] {
  return ids.flatMap((id) => {
    const a = states.agent(id);
    return decideSweep(id, states.state(id), { cap: a.cap, idleWindowDays: a.idleWindowDays, vendors }, now, { busy: busy(id) });
  });
}

/** Usage scores at `now` for each agent named. */
export function previewUsage(
  states: AgentStates,
  ids: string[],
  usage: (agent: string) => AgentUsage,
  runs: (agent: string) => readonly Run[],
  s: PromoteSettings,
  known: ReadonlyMap<string, string>,
  now: number,
): Record<string, UsageCandidate[]> {
  const out: Record<string, UsageCandidate[]> = {};
  for (const id of ids) out[id] = scoreUsage(usage(id), states.state(id), s, states.agent(id).idleWindowDays, known, now, runs(id));
  return out;
}
