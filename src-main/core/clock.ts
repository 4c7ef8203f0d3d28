// Time is injected everywhere so that rules spanning days can be tested in microseconds.

export interface Clock {
  now(): number;
  /**
   * Calls `fn` every `ms` of this clock's time and answers a stop. Optional: a clock without it is
   * read only, and `every()` below falls back to a real (unref'd) setInterval.
   */
  every?(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A repeating timer on the clock's own time where it has one, else setInterval. It never holds the
 * process open unless `holdOpen` says the timer is the process's work (a CLI command that follows
 * something until Ctrl-C), else the process would end after the first tick.
 */
export function every(clock: Clock, ms: number, fn: () => void, opts: { holdOpen?: boolean } = {}): () => void {
  if (clock.every) return clock.every(ms, fn);
  const timer = setInterval(fn, ms);
  // Node's timer object (the renderer, which imports this file for its types, has a number).
  if (!opts.holdOpen) (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

/** Calls `fn` once, `ms` of the clock's time from now (a retry's wait); answers a cancel. */
export function after(clock: Clock, ms: number, fn: () => void): () => void {
  const stop = every(clock, ms, () => {
    stop();
    fn();
  });
  return stop;
}

/** A clock tests move by hand; its timers fire, in time order, as it is moved past them. */
export class ManualClock implements Clock {
  private timers: Array<{ due: number; ms: number; fn: () => void }> = [];
  constructor(private t = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): number {
    return this.t;
  }
  set(ms: number): void {
    this.runUntil(ms);
  }
  advance(ms: number): void {
    this.runUntil(this.t + ms);
  }
  every(ms: number, fn: () => void): () => void {
    if (!(ms > 0)) throw new RangeError(`a timer's period must be above 0 ms, not ${ms}`);
    const timer = { due: this.t + ms, ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }
  private runUntil(target: number): void {
    for (;;) {
      const next = this.timers.reduce<(typeof this.timers)[number] | undefined>(
        (a, x) => (x.due <= target && (!a || x.due < a.due) ? x : a),
        undefined,
      );
      if (!next) break;
      this.t = next.due;
      next.due += next.ms;
      next.fn();
    }
    this.t = target;
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
