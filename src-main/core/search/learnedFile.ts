// learned.json: the pairs one process's searches learned, by agent (a fleet's are its feed's instead).
import type { Logger } from '../log.js';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import type { LearnedPair } from './learnedEvidence.js';
import { isLearnedPair } from './learningFeed.js';

export const LEARNED_FILE = 'learned.json';

type FileShape = { version: 1; agents: Record<string, LearnedPair[]> };

const isFile = (v: unknown): v is FileShape =>
  typeof v === 'object' && v !== null && typeof (v as FileShape).agents === 'object' && (v as FileShape).agents !== null;

/**
 * Each agent's well-formed pairs, for at most `maxAgents` agents (a hand-edited or foreign file may hold
 * more): the most recently active ones, as learning would have kept. Empty when there is no good file.
 */
export async function readLearned(file: string, maxAgents: number, log: Logger): Promise<Array<readonly [string, LearnedPair[]]>> {
  const r = await readJsonSafe<FileShape>(file, log, isFile);
  if (r.kind !== 'ok') return [];
  return Object.entries(r.value.agents)
    .flatMap(([agent, list]) => (Array.isArray(list) ? [[agent, (list as unknown[]).filter(isLearnedPair)] as const] : []))
    .sort((a, b) => (b[1][b[1].length - 1]?.ts ?? 0) - (a[1][a[1].length - 1]?.ts ?? 0))
    .slice(0, maxAgents);
}

export function writeLearned(file: string, pairs: ReadonlyMap<string, LearnedPair[]>): Promise<void> {
  const agents: Record<string, LearnedPair[]> = {};
  for (const [a, list] of pairs) agents[a] = list;
  return writeJsonAtomic(file, { version: 1, agents } satisfies FileShape);
}
