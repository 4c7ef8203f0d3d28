// Usage kept current: the calls and searches recorded are read into usage a moment after they stop
// coming (and at least every INGEST_MAX_GAP_MS while they keep coming), so a report or the cycle finds
// them read instead of reading a burst's backlog on its own request (at 5,000 tools, 10,000 calls
// made the first report ~250 ms slower). The log stays the record: a crash before a read loses nothing.
// On a shared log (PostgreSQL) a record shows to readers only once it settled, so the read waits for
// that too; and other replicas record there as well, so it is read every INGEST_MAX_GAP_MS all the same.
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
  /** A record is read only this long after it was written (a shared log: statestore/postgres SETTLE_MS). */
  settleMs?: number;
  /** Other processes record into the same log: it is read every INGEST_MAX_GAP_MS even without calls here. */
  shared?: boolean;
};

export class QuietIngest {
  private ingest: (() => Promise<void>) | undefined;
  private seen = 0;
  private checked = 0;
  /** When the first record not read yet came, and the latest one. */
  private since: number | undefined;
  private last = 0;
  /** When the last read began. */
  private lastRead = 0;
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
    this.lastRead = this.o.now();
    if (this.o.shared) this.timer();
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
    this.last = this.o.now();
    this.since ??= this.last;
    this.timer();
  }

  private timer(): void {
    this.cancel ??= (this.o.every ?? unrefEvery)(() => this.check(), INGEST_QUIET_MS);
  }

  private check(): void {
    const now = this.o.now();
    // Quiet: no record since the last check, and on a shared log the latest one has settled.
    const settle = this.o.settleMs ?? 0;
    const quiet = this.seen === this.checked && (settle === 0 || now - this.last >= INGEST_QUIET_MS + settle);
    this.checked = this.seen;
    const due =
      this.since === undefined
        ? this.o.shared === true && now - this.lastRead >= INGEST_MAX_GAP_MS
        : quiet || now - this.since >= INGEST_MAX_GAP_MS;
    // A read under way: the next check reads what came meanwhile.
    if (!due || this.running || !this.ingest) return;
    if (quiet && !this.o.shared) {
      this.cancel?.();
      this.cancel = undefined;
    }
    if (this.since !== undefined) this.since = quiet ? undefined : now;
    this.lastRead = now;
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
