// Giving memory back after a burst. V8 collects when it allocates, so a process that goes quiet after
// a burst (a flood of stalled bodies, ten thousand calls, a report over every agent) keeps the burst's
// garbage, and the heap pages holding it, for as long as it stays quiet: for a tray app, hours. One
// full collection once the burst is over gives most of it back (RSS keeps what the allocator holds
// for reuse; figures in docs/research/measured.md and docs/rules/security.md).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { newSpace } from './youngGeneration.js';

/** At least this long between two full collections, whatever asks. */
export const FULL_GC_MIN_GAP_MS = 5_000;
/**
 * And at least this many times the last one's duration: collections take about 1/50 (2 %) of the
 * process's time, for collections of similar cost, however bursts come (an attacker looping floods
 * included). A fixed minute left the second burst of a busy spell uncollected for up to a minute: 230 MB
 * at rest instead of ~190 after 10,000 calls at 5,000 tools (docs/research/measured.md).
 */
export const FULL_GC_COST_FACTOR = 50;
/**
 * How long a burst is left to settle before its collection: requests still closing are let go first,
 * and V8 gives back its young generation only in a collection that finds allocation slow over its last
 * 5 s (Heap::ReduceNewSpaceSize): collected 1–3 s after a burst, the young generation kept its 32 MB;
 * 6 s after, it went back to 1 MB (and RSS down by ~30 MB in a bare process).
 */
export const SETTLE_MS = 6_000;
/** How often the listener looks whether requests have stopped (only while they come). */
export const IDLE_CHECK_MS = 1_000;
/**
 * The old generation's committed pages grown past what the last collection left by a quarter of it,
 * and by 8 MB at least, make a quiet spell worth a collection. Committed, not used: what a collection
 * gives back is pages, and the used figure drops with each of V8's own collections, which keep the
 * pages. A share of the old generation, not a fixed 24 MB of the whole heap: the demo's 26 MB heap grew
 * 12 MB over 1,000 calls (RSS +16 MB, kept for good); at 5,000 tools a start whose collection kept
 * the young generation (32 MB) left 79 MB, and 10,000 calls grew it by 18: neither was collected.
 */
export const IDLE_GC_GROWTH_SHARE = 0.25;
export const IDLE_GC_MIN_GROWTH_BYTES = 8 * 1024 * 1024;
export const idleGrowthFor = (oldAfterCollection: number): number =>
  Math.max(IDLE_GC_MIN_GROWTH_BYTES, oldAfterCollection * IDLE_GC_GROWTH_SHARE);

/**
 * A young generation V8 kept (allocation was quick in the 5 s before the collection) is worth another
 * collection at a quiet spell this long after that one. Not sooner: an agent searching every
 * few seconds keeps allocation quick, and each try costs a compacting collection (60–110 ms at 5,000
 * tools, during which requests wait).
 */
export const YOUNG_RETRY_MS = 30_000;
/** The longest wait between such tries (30 s doubled four times): after it, only quiet spells try, this far apart. */
export const YOUNG_RETRY_MAX_MS = 8 * 60_000;

/** Committed heap pages: the young generation's, and all the others'. */
export type HeapPages = { young: number; old: number };

function heapPages(): HeapPages {
  const young = youngGenerationBytes();
  return { young, old: getHeapStatistics().total_heap_size - young };
}

type Gc = (options?: { type?: 'major' | 'minor' }) => void;

let allowed = false;

/**
 * Lets this process ask V8 for full collections (as `node --expose-gc` would). A process flag, so only
 * what owns the process calls it: `mws serve` and the desktop app's core, at start. The flag itself is
 * set at the first collection asked for, so a process that never needs one keeps V8's flags as they
 * were. A process that never calls it (a CLI command, a test) gets no collections from here.
 */
export function exposeGc(): void {
  allowed = true;
  watchCollections();
}

/**
 * V8 gives its young generation back in a collection that finds allocation slow since its last
 * collection, over 5 s at least (Heap::ReduceNewSpaceSize: the throughput is measured from collection to
 * collection). In a bare process after a burst, gc() 4.0 s after V8's last scavenge kept all 32 MB; 5.2 s
 * and more after it gave them back, however long ago the burst itself ended.
 */
export const QUIET_SINCE_GC_MS = 5_500;

let lastCollectionEnd = -Infinity;
/** Whether the collections are watched: undefined until tried, false when no observer could be made. */
let watching: boolean | undefined;
const collectionListeners: Array<() => void> = [];

/** Notes when each of V8's collections (scavenges included) ends; started with exposeGc. */
function watchCollections(): boolean {
  if (watching !== undefined) return watching;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) lastCollectionEnd = Math.max(lastCollectionEnd, e.startTime + e.duration);
      for (const f of collectionListeners) {
        try {
          f();
        } catch {
          // its own loss: the others, and the next collection, still go on
        }
      }
    }).observe({ entryTypes: ['gc'] });
    watching = true;
  } catch {
    // No observer: collections wait for the settle alone, as before.
    watching = false;
  }
  return watching;
}

/**
 * `f` runs after V8's collections, as the one observer of them hears of them (a task later, a batch at a
 * time). False when they cannot be watched: `f` will never run.
 */
export function onCollections(f: () => void): boolean {
  if (!watchCollections()) return false;
  collectionListeners.push(f);
  return true;
}

/** Milliseconds since V8's last collection ended (Infinity when not watched). */
export function sinceLastCollection(): number {
  return performance.now() - lastCollectionEnd;
}

function youngGenerationBytes(): number {
  return newSpace()?.space_size ?? 0;
}

/** A young generation bigger than this after a collection was kept, not given back (V8 starts it at 1 MB). */
const YOUNG_GIVEN_BACK_BYTES = 4 * 1024 * 1024;

/** V8's collection function, when the process has one or its owner allowed it (exposeGc). */
function gcFunction(): Gc | undefined {
  const g = globalThis as { gc?: Gc };
  if (typeof g.gc === 'function') return g.gc;
  if (!allowed) return undefined;
  try {
    setFlagsFromString('--expose-gc');
    g.gc = runInNewContext('gc') as Gc;
    // The function stays; the flag goes back, so V8's flags are again those the process started with:
    // code cached by this process (cli/codeCache.ts) is refused by a process whose flags differ.
    setFlagsFromString('--no-expose-gc');
    return g.gc;
  } catch {
    // No collection then; V8 will collect later on its own.
    return undefined;
  }
}

/**
 * V8's full collection. False when the young generation kept its size: V8 found allocation too quick
 * since its last collection (see YoungGeneration), and a later try will give it back.
 */
function collectGarbage(): boolean {
  const gc = gcFunction();
  if (!gc) return true;
  // Compacting: a plain full collection frees the burst's objects but keeps the pages they were spread
  // over (tens of MB committed for a few MB live); moving the survivors together gives the pages back.
  // Only this collection compacts every page: V8's own collections keep their usual choice.
  // Node (and Electron) run V8 with its flags unfrozen, so they can be set here; one given on the
  // command line is left as it is.
  const compacting = !process.execArgv.includes('--compact-on-every-full-gc');
  if (compacting) setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    if (compacting) setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return youngGenerationBytes() <= YOUNG_GIVEN_BACK_BYTES;
}

type Later = (f: () => void, ms: number) => void;

/**
 * V8 gives its young generation back in a full collection only when the bytes allocated since its last
 * collection, over the time since, are under 1 KB/ms (Heap::ReduceNewSpaceSize): at the end of a start
 * at 5,000 tools ~10 MB were allocated after V8's last scavenge, so a collection 7 s later still found
 * 1.5 KB/ms and kept all 32 MB (in half the runs). A minor collection when a burst is over makes "the
 * last collection" then, with nothing allocated since; the full one follows after the settle. Work that
 * goes on allocating after the burst (an ingest of 10,000 calls) still makes V8 keep it: the full
 * collection is not put off for that (the old generation's garbage is most of what it gives back), and
 * IdleCollector's later try (YOUNG_RETRY_MS) begins with a minor collection of its own when the young
 * generation has filled again by then.
 */
export type YoungGeneration = {
  /** Bytes allocated in the young generation since V8's last collection: what it holds now (with what survived that one). */
  allocated(): number;
  /** A minor collection (a scavenge): a few ms. */
  collect(): void;
};

/**
 * What the young generation may hold before a burst's end is worth a minor collection. A young generation
 * held to 4 MB a semispace (http/youngGeneration.ts) seldom holds that much: the full collection's wait
 * for V8's own last one (QUIET_SINCE_GC_MS) then finds allocation slow enough by itself (4 MB in 5.5 s).
 */
export const YOUNG_MINOR_MIN_BYTES = 4 * 1024 * 1024;

const noYoungGeneration: YoungGeneration = { allocated: () => 0, collect: () => {} };

/** This process's young generation: a minor collection where full ones run (exposeGc, or a gc() the process was started with). */
export const v8YoungGeneration: YoungGeneration = {
  allocated: () => newSpace()?.space_used_size ?? 0,
  collect: () => {
    const gc = gcFunction();
    if (!gc) return;
    gc({ type: 'minor' });
    // Now, not when the observer hears of it (a task later).
    lastCollectionEnd = performance.now();
  },
};

/** A collection due while requests come (or V8 collects) waits for them to stop, for SETTLE_MS (QUIET_SINCE_GC_MS), but no longer than this. */
export const BUSY_WAIT_MAX_MS = 60_000;

/**
 * One full collection when asked, after a settle, and not before the gap after the last one is over
 * (one pending at most). The gap is the longer of a floor and a multiple of the last one's duration.
 * A collection that says it could give back more later (`collect` answers false) is tried once more,
 * and once more again for a burst that ends while that try waits.
 */
export class FullCollector {
  /** When the next collection may run. */
  private next = -Infinity;
  private pending = false;
  /** A burst ended while the pending collection was a second try: it may try again for that burst. */
  private drainedWhilePending = false;
  private readonly collected: Array<() => void> = [];
  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly minGapMs = FULL_GC_MIN_GAP_MS,
    private readonly collect: () => boolean = collectGarbage,
    private readonly later: Later = (f, ms) => void setTimeout(f, ms).unref(),
    private readonly costFactor = FULL_GC_COST_FACTOR,
    /** How long since the last request: a collection due sooner than SETTLE_MS after one waits (V8 would keep its young generation). */
    private readonly quietFor: () => number = () => Infinity,
    /** How long since V8's last collection: one due sooner than QUIET_SINCE_GC_MS after it waits, for the same reason. */
    private readonly sinceLastGc: () => number = () => Infinity,
    private readonly young: YoungGeneration = noYoungGeneration,
  ) {}

  /**
   * A burst is over: collect once, now (after a settle) or when the gap since the last one is over;
   * `retry`: once more if V8 kept its young generation.
   */
  drained(retry = true): void {
    this.schedule(retry);
  }

  private schedule(mayRetry: boolean): void {
    if (this.pending) {
      if (mayRetry) this.drainedWhilePending = true;
      return;
    }
    this.pending = true;
    // Requests stopped a check ago (IdleCollector): the burst's garbage in the young generation goes now,
    // at the cost of a scavenge, so that the full collection after the settle finds allocation slow
    // since then. Not when asked in the middle of requests (a flood's end, a count ending): a scavenge
    // then would only move requests in flight to the old generation.
    // (Half a check: timers read a clock cached per loop turn, so a check can find 999 ms.)
    if (this.quietFor() >= IDLE_CHECK_MS / 2 && this.young.allocated() >= YOUNG_MINOR_MIN_BYTES) {
      try {
        this.young.collect();
      } catch {
        // No minor collection: the full one still comes after the settle.
      }
    }
    const wait = Math.max(SETTLE_MS, this.next - this.now());
    const due = this.now() + wait;
    const fire = () => {
      // Asked for by background work (a count ending) in the middle of a burst of requests: after it,
      // settled like any burst; and not sooner than QUIET_SINCE_GC_MS after V8's own last collection.
      // Unless requests or allocation never stop (a poller): then after a minute anyway.
      const more = Math.max(SETTLE_MS - this.quietFor(), QUIET_SINCE_GC_MS - this.sinceLastGc());
      if (more > 0 && this.now() - due < BUSY_WAIT_MAX_MS) return this.later(fire, more);
      this.pending = false;
      const again = mayRetry || this.drainedWhilePending;
      this.drainedWhilePending = false;
      const start = this.now();
      const done = this.collect();
      const end = this.now();
      this.next = end + Math.max(this.minGapMs, (end - start) * this.costFactor);
      for (const f of this.collected) f();
      if (!done && again) this.schedule(false);
    };
    this.later(fire, wait);
  }

  /** `f` runs after each collection. */
  onCollected(f: () => void): void {
    this.collected.push(f);
  }
}

/**
 * Watches requests come and go: once they stop for a whole check, and the old generation has grown
 * well past what the last collection left (idleGrowthFor), or the young generation is bigger than V8
 * starts it (a collection after a quiet spell gives it back; after one that kept it, not before
 * YOUNG_RETRY_MS), it asks for one full collection.
 * Counting a request is an increment; the check runs only while requests come, so an idle process has
 * no timer waking it.
 */
export class IdleCollector {
  private seen = 0;
  private checked = 0;
  private stop: (() => void) | undefined;
  private baseline: number;
  /** When the last collection ended with the young generation kept (V8 found allocation quick). */
  private youngKeptAt: number | undefined;
  /** How long after it the next try may come: doubles with each try in a row that keeps it. */
  private youngWait = YOUNG_RETRY_MS;
  private lastRequest = -Infinity;
  private readonly requestListeners: Array<(busy: boolean) => void> = [];
  constructor(
    private readonly full: FullCollector,
    private readonly heap: () => HeapPages = heapPages,
    private readonly every: (f: () => void, ms: number) => () => void = (f, ms) => {
      const t = setInterval(f, ms).unref();
      return () => clearInterval(t);
    },
    /** How much growth over what the last collection left is worth one. */
    private readonly growth: (oldAfterCollection: number) => number = idleGrowthFor,
    private readonly now: () => number = () => performance.now(),
    private readonly later: Later = (f, ms) => void setTimeout(f, ms).unref(),
  ) {
    this.baseline = heap().old;
    full.onCollected(() => this.collected());
  }

  private collected(): void {
    const after = this.heap();
    this.baseline = after.old;
    if (after.young <= YOUNG_GIVEN_BACK_BYTES) {
      this.youngKeptAt = undefined;
      return;
    }
    // Kept. Tried again at a quiet spell after the wait, or by one timer then if none comes (an idle
    // process would keep it for good); each try in a row that keeps it doubles the wait, and past the
    // longest no timer is set (an idle process is not woken for ever) and quiet spells try every
    // YOUNG_RETRY_MAX_MS. A timer left from an earlier try does nothing (youngKeptAt has moved on).
    this.youngWait = this.youngKeptAt === undefined ? YOUNG_RETRY_MS : this.youngWait * 2;
    const keptAt = (this.youngKeptAt = this.now());
    const wait = this.youngWait;
    if (wait > YOUNG_RETRY_MAX_MS) return;
    this.later(() => {
      if (this.youngKeptAt !== keptAt) return;
      if (this.heap().young <= YOUNG_GIVEN_BACK_BYTES) this.youngKeptAt = undefined;
      else this.full.drained(false);
    }, wait);
  }

  /** Milliseconds since the last request (Infinity before the first). */
  quietFor(): number {
    return this.now() - this.lastRequest;
  }

  /** A request arrived. */
  touch(): void {
    this.seen++;
    this.lastRequest = this.now();
    if (this.stop) return;
    this.stop = this.every(() => this.check(), IDLE_CHECK_MS);
    this.tellRequests(true);
  }

  /** A listener that throws is not the request's business, nor the check's. */
  private tellRequests(busy: boolean): void {
    for (const f of this.requestListeners) {
      try {
        f(busy);
      } catch {
        // its own loss
      }
    }
  }

  /** `f(true)` when requests start coming after a quiet spell, `f(false)` when they stopped for a whole check. */
  onRequests(f: (busy: boolean) => void): void {
    this.requestListeners.push(f);
  }

  private check(): void {
    if (this.seen !== this.checked) {
      this.checked = this.seen;
      return;
    }
    this.stop?.();
    this.stop = undefined;
    this.tellRequests(false);
    const now = this.heap();
    // V8 gave it back on its own meanwhile: the next one kept waits the first wait again.
    if (now.young <= YOUNG_GIVEN_BACK_BYTES) this.youngKeptAt = undefined;
    const grown = now.old - this.baseline >= this.growth(this.baseline);
    const young =
      now.young > YOUNG_GIVEN_BACK_BYTES &&
      (this.youngKeptAt === undefined || this.now() - this.youngKeptAt >= Math.min(this.youngWait, YOUNG_RETRY_MAX_MS));
    // The young generation alone is not tried twice in a row: the retry would find allocation as quick.
    if (grown || young) this.full.drained(grown);
  }
}

/** One per process: every listener shares one collector, and so its gap. */
export const fullCollector: FullCollector = new FullCollector(
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  (): number => idleCollector.quietFor(),
  sinceLastCollection,
  v8YoungGeneration,
);
export const idleCollector: IdleCollector = new IdleCollector(fullCollector);
