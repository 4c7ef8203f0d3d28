// One task at a time, in the order asked: file writes that must not interleave, cycles that decide
// from the state the one before left. A task's failure reaches its own caller, never the next task.

export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task queued before it has settled; answers its outcome. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once every task queued so far has (never rejects). */
  async idle(): Promise<void> {
    await this.tail;
  }
}
