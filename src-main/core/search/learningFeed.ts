// What search learned, as an ordered feed every replica of a fleet applies: each replica's own
// search→call pairs and forgets go in, the others' come out. Without it (one process on files) the
// pairs are kept in learned.json alone.
import type { LearnedPair } from './learnedEvidence.js';

/** One change to what search learned: a pair an agent's search→call taught, or a forget. */
export type LearningEvent = { agent: string; pair: LearnedPair } | { forget: string; word?: string };

export interface LearningFeed {
  /** Queues this process's change; written behind the request that made it. */
  append(event: LearningEvent): void;
  /** Writes what is queued now; rejects with the store's error when it cannot. */
  flush(): Promise<void>;
  /** Changes other processes wrote after `afterId`, oldest first, in the order they were committed. */
  since(afterId: number, limit: number): Promise<Array<{ id: number; event: LearningEvent }>>;
}

/** A pair as a file or the feed should hold it (either may hold anything: a hand edit, a newer replica). */
export function isLearnedPair(p: unknown): p is LearnedPair {
  const x = p as LearnedPair | null;
  return (
    !!x && typeof x.q === 'string' && typeof x.t === 'string' && Number.isFinite(x.ts) && (x.o === undefined || typeof x.o === 'string')
  );
}

/** Whether a stored event has the shape of one. */
export function isLearningEvent(v: unknown): v is LearningEvent {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  if (typeof e.forget === 'string') return e.word === undefined || typeof e.word === 'string';
  return typeof e.agent === 'string' && isLearnedPair(e.pair);
}
