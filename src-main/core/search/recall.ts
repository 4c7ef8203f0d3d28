// The same request again: the tools it led an agent to before (SearchLearning.recall) move up the
// ranking by how far they are remembered. Word-level learning needs a word to recur before trusting it
// (a word seen once may be the task's argument); a whole request seen again is no such guess.
import type { ToolEntry } from '../toolbox/toolbox.js';
import { byCodeUnit } from '../../shared/codeUnitOrder.js';

/**
 * A remembered tool gains this share of the best hit's score per unit of trust: one fresh own pair
 * (trust ~0.63) puts it above a first hit that matched the words better (1.26 × its score), and a
 * pair another agent made (trust ~0.39) just under it. Trust is a share of positive evidence only, so
 * the negative pair a passed-over first hit records does not weaken the tool the agent chose.
 */
export const RECALL_WEIGHT = 2;

export type ScoredHit = { entry: ToolEntry; score: number };

/** `hits` re-ranked with the remembered tools' trust added (tools not among the hits join them). */
export function withRecall(hits: readonly ScoredHit[], remembered: ReadonlyMap<ToolEntry, number> | undefined): ScoredHit[] {
  if (!remembered?.size) return [...hits];
  const top = hits[0]?.score || 1;
  const scores = new Map<ToolEntry, number>(hits.map((h) => [h.entry, h.score]));
  for (const [entry, trust] of remembered) scores.set(entry, (scores.get(entry) ?? 0) + RECALL_WEIGHT * top * trust);
  return [...scores]
    .map(([entry, score]) => ({ entry, score }))
    .sort((a, b) => b.score - a.score || byCodeUnit(a.entry.name, b.entry.name));
}
