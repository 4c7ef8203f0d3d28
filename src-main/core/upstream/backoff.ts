// Restart delays for a dying stdio upstream: doubling from a quarter second, capped so a flapping
// server is retried twice a minute rather than in a tight loop.
export const RESTART_BASE_MS = 250;
export const RESTART_MAX_MS = 30_000;
/** A child that stayed up this long is healthy again: the next death starts from the base delay. */
export const RESTART_RESET_AFTER_MS = 60_000;

export function restartDelayMs(attempt: number): number {
  return Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** Math.max(0, attempt));
}
