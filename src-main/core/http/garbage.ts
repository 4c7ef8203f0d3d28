// Giving memory back after a burst. V8 collects when it allocates, so a process that goes quiet after
// a burst (a flood of stalled bodies, ten thousand calls, a report over every agent) keeps the burst's
// garbage, and the heap pages holding it, for as long as it stays quiet: for a tray app, hours. One
// full collection once the burst is over gives most of it back (RSS keeps what the allocator holds
// for reuse; figures in docs/research/measured.md and docs/rules/security.md).
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** At most one full collection this often, whatever asks: bursts in a loop cost one a minute. */
export const FULL_GC_GAP_MS = 60_000;
/** Requests still closing when a burst ends are let go first. */
const SETTLE_MS = 1_000;
/** How often the listener looks whether requests have stopped (only while they come). */
export const IDLE_CHECK_MS = 1_000;
/** Heap grown past what the last collection left by this much makes a quiet spell worth a collection. */
export const IDLE_GC_GROWTH_BYTES = 24 * 1024 * 1024;

type Gc = () => void;

let allowed = false;

/**
 * Lets this process ask V8 for full collections (as `node --expose-gc` would). A process flag, so only
 * what owns the process calls it: `mws serve` and the desktop app's core, at start. The flag itself is
 * set at the first collection asked for, so a process that never needs one keeps V8's flags as they
 * were. A process that never calls it (a CLI command, a test) gets no collections from here.
 */
export function exposeGc(): void {
  allowed = true;
}

/** V8's full collection, when the process has one or its owner allowed it (exposeGc). */
function collectGarbage(): void {
  const g = globalThis as { gc?: Gc };
  if (typeof g.gc !== 'function') {
    if (!allowed) return;
    try {
      setFlagsFromString('--expose-gc');
      g.gc = runInNewContext('gc') as Gc;
      // The function stays; the flag goes back, so V8's flags are again those the process started with:
      // code cached by this process (cli/codeCache.ts) is refused by a process whose flags differ.
      setFlagsFromString('--no-expose-gc');
    } catch {
      // No collection then; V8 will collect later on its own.
      return;
    }
  }
  // Compacting: a plain full collection frees the burst's objects but keeps the pages they were spread
  // over (tens of MB committed for a few MB live); moving the survivors together gives the pages back.
  // Only this collection compacts every page: V8's own collections keep their usual choice.
  // Node (and Electron) run V8 with its flags unfrozen, so they can be set here; one given on the
  // command line is left as it is.
  const compacting = !process.execArgv.includes('--compact-on-every-full-gc');
  if (compacting) setFlagsFromString('--compact-on-every-full-gc');
  try {
    g.gc?.();
  } finally {
    if (compacting) setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

type Later = (f: () => void, ms: number) => void;

/** One full collection when asked, after a settle, and at most once per gap (one pending at most). */
export class FullCollector {
  private last = -Infinity;
  private pending = false;
  private readonly collected: Array<() => void> = [];
  constructor(
    private readonly now: () => number = Date.now,
    private readonly gapMs = FULL_GC_GAP_MS,
    private readonly collect: () => void = collectGarbage,
    private readonly later: Later = (f, ms) => void setTimeout(f, ms).unref(),
  ) {}

  /** A burst is over: collect once, now (after a settle) or when the gap since the last one is over. */
  drained(): void {
    if (this.pending) return;
    this.pending = true;
    const wait = Math.max(SETTLE_MS, this.last + this.gapMs - this.now());
    this.later(() => {
      this.pending = false;
      this.last = this.now();
      this.collect();
      for (const f of this.collected) f();
    }, wait);
  }

  /** `f` runs after each collection. */
  onCollected(f: () => void): void {
    this.collected.push(f);
  }
}

/**
 * Watches requests come and go: once they stop for a whole check and the heap has grown well past
 * what the last collection left, it asks for one full collection. Counting a request is an increment;
 * the check runs only while requests come, so an idle process has no timer waking it.
 */
export class IdleCollector {
  private seen = 0;
  private checked = 0;
  private stop: (() => void) | undefined;
  private baseline: number;
  constructor(
    private readonly full: FullCollector,
    private readonly heapUsed: () => number = () => getHeapStatistics().used_heap_size,
    private readonly every: (f: () => void, ms: number) => () => void = (f, ms) => {
      const t = setInterval(f, ms).unref();
      return () => clearInterval(t);
    },
    private readonly growth = IDLE_GC_GROWTH_BYTES,
  ) {
    this.baseline = heapUsed();
    full.onCollected(() => (this.baseline = this.heapUsed()));
  }

  /** A request arrived. */
  touch(): void {
    this.seen++;
    this.stop ??= this.every(() => this.check(), IDLE_CHECK_MS);
  }

  private check(): void {
    if (this.seen !== this.checked) {
      this.checked = this.seen;
      return;
    }
    this.stop?.();
    this.stop = undefined;
    if (this.heapUsed() - this.baseline >= this.growth) this.full.drained();
  }
}

/** One per process: every listener shares the once-a-minute collection. */
export const fullCollector = new FullCollector();
export const idleCollector = new IdleCollector(fullCollector);
