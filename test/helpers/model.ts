// Rankings compared across calls must wait for the sentence model: the first search starts it, and
// until it has read every tool the answer is by words alone (a different ranking).
import type { ControlApi } from '../../src-main/core/control/api.js';
import { until } from './wait.js';

export const MODEL_READY_MS = 120_000;

/** Resolves once semantic search is ready, or has given up (then search stays lexical). */
export async function modelSettled(api: Pick<ControlApi, 'status'>): Promise<void> {
  await until(
    async () => ['ready', 'off'].includes((await api.status({})).semanticSearch?.state ?? 'off'),
    'the model to read every tool (or to give up)',
    MODEL_READY_MS,
  );
}
