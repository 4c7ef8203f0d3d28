// Records written behind the request that made them (calls, history lines): queued in memory, inserted
// in batches, in order. While the database is away they wait (up to a bound) and are retried, so a
// short outage loses none; past the bound the oldest wait on and new ones are counted as dropped.
// While the database answers, `push` also tells when the record is committed, so a caller can hold
// its answer until then (a call acknowledged is a call recorded, even if the process is killed next).
import { errorMessage } from '../../errors.js';
import type { Logger } from '../../log.js';

/** One insert carries at most this many records. */
const BATCH_MAX = 500;
/** Records held while the database is away; past this new ones are dropped (and counted). */
export const QUEUE_MAX = 20_000;
/** A failed write is tried again after this long. */
export const RETRY_MS = 1000;

type Entry<T> = { item: T; written?: () => void };

export class BatchWriter<T> {
  private queue: Array<Entry<T>> = [];
  private running: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private lastError: unknown;
  private warned = false;
  private closed = false;
  readonly droppedBy = new Map<string, number>();

  constructor(
    private readonly o: {
      what: string;
      insert: (batch: T[]) => Promise<void>;
      keyOf: (item: T) => string;
      log: Logger;
      retryMs?: number;
    },
  ) {}

  /**
   * Queues a record. Answers a promise that resolves once it is committed — or as soon as the database
   * fails to take it (it then waits in the queue) — and nothing while the database is known to be away
   * or the record was dropped: a caller never waits on an outage.
   */
  push(item: T): Promise<void> | undefined {
    if (this.closed || this.queue.length >= QUEUE_MAX) {
      const k = this.o.keyOf(item);
      this.droppedBy.set(k, (this.droppedBy.get(k) ?? 0) + 1);
      return undefined;
    }
    const entry: Entry<T> = { item };
    const away = this.warned || this.retry !== undefined;
    const written = away ? undefined : new Promise<void>((resolve) => (entry.written = resolve));
    this.queue.push(entry);
    // Next turn: records pushed in one turn go in one insert.
    if (!this.running && !this.retry) this.running = Promise.resolve().then(() => this.drain());
    return written;
  }

  /** Lets everyone waiting on a record go (it was written, or it waits on in the queue). */
  private release(entries: Array<Entry<T>>): void {
    for (const e of entries) {
      e.written?.();
      delete e.written;
    }
  }

  get waiting(): number {
    return this.queue.length;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.slice(0, BATCH_MAX);
        try {
          await this.o.insert(batch.map((e) => e.item));
        } catch (err) {
          this.lastError = err;
          this.release(this.queue);
          if (!this.warned) {
            this.warned = true;
            this.o.log.warn(
              `${this.queue.length} ${this.o.what} wait for the state database (${errorMessage(err)}); they are written when it answers again.`,
            );
          }
          if (!this.closed) {
            this.retry = setTimeout(() => {
              this.retry = undefined;
              if (!this.running) this.running = this.drain();
            }, this.o.retryMs ?? RETRY_MS);
            this.retry.unref();
          }
          return;
        }
        this.queue.splice(0, batch.length);
        this.release(batch);
        if (this.warned) {
          this.warned = false;
          this.o.log.info(`the state database answers again; the ${this.o.what} that waited are written.`);
        }
      }
    } finally {
      this.running = undefined;
    }
  }

  /** Writes what is queued now; rejects with the database's error when it cannot (they stay queued). */
  async flush(): Promise<void> {
    if (this.running) await this.running;
    if (!this.queue.length) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.running = this.drain();
    await this.running;
    if (this.queue.length) throw this.lastError;
  }

  /** Tries a last write, then stops retrying. Answers how many records were left unwritten. */
  async close(): Promise<number> {
    await this.flush().catch(() => {});
    this.closed = true;
    clearTimeout(this.retry);
    this.release(this.queue);
    return this.queue.length;
  }
}
