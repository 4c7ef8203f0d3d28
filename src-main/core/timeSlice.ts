// Long synchronous work split into slices with the event loop free between them (calls keep flowing
// while 5,000 tools are compared, indexed or counted): one helper for every such loop.

/** The next turn of the event loop, after I/O waiting now. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

export type SliceOptions = {
  /** How long one slice may hold the event loop. */
  sliceMs: number;
  /** Steps between looks at the clock (default 64: reading it costs more than a light step). */
  checkEvery?: number;
  /** Injectable so tests drive the budget without a real clock. */
  now?: () => number;
  pause?: () => Promise<void>;
};

export class TimeSlicer {
  private start: number;
  private n = 0;
  private readonly sliceMs: number;
  private readonly checkEvery: number;
  private readonly now: () => number;
  private readonly pause: () => Promise<void>;

  constructor(opts: SliceOptions) {
    this.sliceMs = opts.sliceMs;
    this.checkEvery = opts.checkEvery ?? 64;
    this.now = opts.now ?? (() => performance.now());
    this.pause = opts.pause ?? nextTurn;
    this.start = this.now();
  }

  /**
   * Counts a step (`weight`: how many light steps it counts for) and yields to the event loop once
   * the slice is used up; answers whether it yielded (the caller may then find its work stale).
   */
  async maybeYield(weight = 1): Promise<boolean> {
    this.n += weight;
    if (this.n < this.checkEvery) return false;
    this.n = 0;
    if (this.now() - this.start < this.sliceMs) return false;
    await this.pause();
    this.start = this.now();
    return true;
  }
}
