// When a down upstream is tried again: one timer at most, its delay doubling with each try that failed
// (backoff.ts), back to the base once a try succeeds.
import { restartDelayMs } from './backoff.js';

export class RetrySchedule {
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;

  /** A try is waiting for its time. */
  get waiting(): boolean {
    return this.timer !== undefined;
  }

  /** No try waits any more (connecting now, waiting for the user, or closed). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** It came up (or stayed up long enough): the next failure waits the base delay again. */
  reset(): void {
    this.attempt = 0;
  }

  /** The next try's delay; `tryAgain` runs once it is over, unless cancelled first. */
  next(tryAgain: () => void): number {
    const delay = restartDelayMs(this.attempt++);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      tryAgain();
    }, delay);
    this.timer.unref();
    return delay;
  }
}
