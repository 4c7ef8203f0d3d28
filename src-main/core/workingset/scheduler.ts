// Runs the working-set cycle every five minutes on the injected clock's timer (never two at once).
// Thin on purpose: every decision is in the pure rules; this only says when.
import { every, type Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { WorkingSets } from './manager.js';

/** Every 5 minutes: often enough that a cap change shows soon, rare enough to cost nothing. */
export const SWEEP_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Starts the schedule; the stop it answers also waits for a cycle that is running. `leads`: whether this
 * process runs the cycle now (replicas on a shared store: only the fleet's leader does, so a cycle's
 * decisions are made once); asked at each tick, so another takes over within one period.
 */
export function startSweepSchedule(
  sets: Pick<WorkingSets, 'cycle'>,
  clock: Clock,
  log: Logger,
  leads?: () => Promise<boolean>,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    // A cycle slower than the period (a huge toolbox, a slow disk) is not started twice.
    if (running || stopped) return;
    // Scheduled: an active agent keeps its list (and its prompt cache) until it is quiet.
    const now = clock.now();
    const cycle = () => sets.cycle(now, { whenQuiet: true });
    running = (leads ? leads().then((lead) => (lead && !stopped ? cycle() : undefined)) : cycle())
      .then(
        () => {},
        (err: Error) => log.warn(`working-set sweep failed: ${err.message}`),
      )
      .finally(() => (running = undefined));
  };
  const cancel = every(clock, SWEEP_INTERVAL_MS, tick);
  return async () => {
    stopped = true;
    cancel();
    await running;
  };
}
