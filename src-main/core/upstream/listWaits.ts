// Calls that wait for a starting upstream to list, by upstream: a call that names a starting
// upstream's tool waits for it (up to its own deadline) rather than failing as unknown.
export class ListWaits {
  private readonly waiting = new Map<string, Array<() => void>>();

  /** Resolves when `wake(name)` comes, or after `ms`. */
  async wait(name: string, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      const list = this.waiting.get(name) ?? [];
      list.push(resolve);
      this.waiting.set(name, list);
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
  }

  /** Lets go of every call waiting for `name` (it listed, or stopped starting). */
  wake(name: string): void {
    this.waiting
      .get(name)
      ?.splice(0)
      .forEach((w) => w());
  }
}
