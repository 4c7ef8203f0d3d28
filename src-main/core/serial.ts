// One task at a time, in the order asked: file writes that must not interleave, cycles that decide
// from the state the one before left. A task's failure reaches its own caller, never the next task.

export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task queued before it has settled; answers its outcome. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // The tail settles to nothing: it would otherwise keep the last task's answer (a sweep's 26,000
    // decisions at 5,000 tools × 100 agents) for as long as the queue is idle.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Settles once every task queued so far has (never rejects). */
  async idle(): Promise<void> {
    await this.tail;
  }
}

/**
 * A task asked for again while it runs is run once more after it, however often it was asked: the
 * last run always starts after the last ask (a re-list after a burst of change notices, say).
 */
export class Rerun {
  private running = false;
  private again = false;

  constructor(private readonly task: () => Promise<void>) {}

  /** A run is under way (or about to run again). */
  get busy(): boolean {
    return this.running;
  }

  ask(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void (async () => {
      try {
        do {
          this.again = false;
          await this.task().catch(() => {});
        } while (this.again);
      } finally {
        this.running = false;
      }
    })();
  }
}
