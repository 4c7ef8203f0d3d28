// Usage kept current: the calls and searches recorded are read into usage a moment after they stop
// coming (and at least every INGEST_MAX_GAP_MS while they keep coming), so a report or the cycle finds
// them read instead of reading a burst's backlog on its own request (at 5,000 tools, 10,000 calls
// made the first report ~250 ms slower). The log stays the record: a crash before a read loses nothing.
import type { CallRecorder } from '../usage/callLog.js';
import type { Logger } from '../log.js';

/** Calls stopped for this long: the burst is over, its records are read. */
export const INGEST_QUIET_MS = 1_000;
/** Calls that never stop are read this often all the same. */
export const INGEST_MAX_GAP_MS = 30_000;

export type QuietIngestOptions = {
  log: Logger;
  now: () => number;
  /** A repeating timer that never keeps the process alive; answers its cancel (tests inject one). */
  every?: (f: () => void, ms: number) => () => void;
};

export class QuietIngest {
  private ingest: (() => Promise<void>) | undefined;
  private seen = 0;
  private checked = 0;
  /** When the first record not read yet came. */
  private since: number | undefined;
  private cancel: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly o: QuietIngestOptions) {}

  /** The recorder every call and search passes through, counted here on its way. */
  recorder(inner: CallRecorder): CallRecorder {
    return {
      call: (r) => {
        this.touch();
        return inner.call(r);
      },
      search: (r) => {
        this.touch();
        inner.search(r);
      },
      droppedRecords: (agent) => inner.droppedRecords(agent),
      flush: () => inner.flush(),
      close: () => inner.close(),
    };
  }

  /** From now on, records are read by `ingest` (a serving process: a CLI command reads on its own). */
  start(ingest: () => Promise<void>): void {
    this.ingest = ingest;
  }

  /** No more reads; waits for one under way. */
  async stop(): Promise<void> {
    this.ingest = undefined;
    this.cancel?.();
    this.cancel = undefined;
    await this.running;
  }

  private touch(): void {
    if (!this.ingest) return;
    this.seen++;
    this.since ??= this.o.now();
    this.cancel ??= (this.o.every ?? unrefEvery)(() => this.check(), INGEST_QUIET_MS);
  }

  private check(): void {
    const quiet = this.seen === this.checked;
    this.checked = this.seen;
    if (!quiet && this.o.now() - (this.since ?? this.o.now()) < INGEST_MAX_GAP_MS) return;
    // A read under way: the next check reads what came meanwhile.
    if (this.running || !this.ingest) return;
    if (quiet) {
      this.cancel?.();
      this.cancel = undefined;
    }
    this.since = quiet ? undefined : this.o.now();
    const ingest = this.ingest;
    this.running = ingest()
      .catch((err: Error) =>
        this.o.log.warn(`calls could not be read into usage now (${err.message}); the next report or cycle reads them.`),
      )
      .finally(() => (this.running = undefined));
  }
}

function unrefEvery(f: () => void, ms: number): () => void {
  const t = setInterval(f, ms);
  t.unref();
  return () => clearInterval(t);
}
