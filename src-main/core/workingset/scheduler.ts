// Runs the working-set cycle every five minutes (node-cron, never two at once). Thin on purpose:
// every decision is in the pure rules; this only says when.
import { schedule, type ScheduledTask } from 'node-cron';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { WorkingSets } from './manager.js';

/** Every 5 minutes: often enough that a cap change shows soon, rare enough to cost nothing. */
export const SWEEP_CRON = '*/5 * * * *';

export function startSweepSchedule(sets: WorkingSets, clock: Clock, log: Logger): () => Promise<void> {
  let task: ScheduledTask | undefined = schedule(
    SWEEP_CRON,
    async () => {
      try {
        // Scheduled: an active agent keeps its list (and its prompt cache) until it is quiet.
        await sets.cycle(clock.now(), { whenQuiet: true });
      } catch (err) {
        log.warn(`working-set sweep failed: ${(err as Error).message}`);
      }
    },
    { noOverlap: true, name: 'working-set-sweep' },
  );
  return async () => {
    const t = task;
    task = undefined;
    await t?.destroy();
  };
}
