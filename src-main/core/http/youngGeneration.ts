// How big V8's young generation may grow in `mws serve`. V8 doubles it (1 → 16 MB a semispace, 32 MB
// for the pair) whenever what survived its collections since the last growth exceeds its size, and
// never stops short of 16 MB on its own: module loading and a start at 5,000 tools survive ~35 MB, so
// the whole 32 MB was there before the first request, and after every burst until V8 gave it back.
// `--max-semi-space-size` bounds it, but only on node's command line (docs/research/measured.md). V8
// reads its growth factor each time it grows (SemiSpaceNewSpace::Grow), so a factor of 1 set at run
// time holds the young generation at the size it has:
// - from the launch of `mws serve` until requests come (cli/launch.ts): module loading and the start's
//   survivors go to the old generation, where they stay anyway, instead of growing the young one;
// - while requests come it may double again, up to YOUNG_CAP_BYTES a semispace (held at 1 MB, a burst
//   of calls or a report promotes its short-lived objects: tools/list p99 17-28 ms instead of 12-15);
// - when they stop, it is held again, and V8 gives it back in the next collection after a quiet spell
//   (http/garbage.ts).
// V8's code cache (cli/codeCache.ts) is refused by a process whose flags differ from those of the one
// that made it: the factor is 1 whenever this process compiles or saves its cache.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The largest semispace requests may grow it to. At 5,000 tools × 100 agents (bench/scale, beside the
 * build without this in one run): 4 MB took RSS after the start from 156 to 114-119 MB and after 10,000
 * calls from 165-194 to 156-172 MB, with tools/list and the first report as quick; 8 MB kept 131 MB after
 * the start (the first requests come while the start's index is built, and its survivors grow it).
 */
export const YOUNG_CAP_BYTES = 4 * 1024 * 1024;

/** The young generation as this needs it: how much a semispace holds now, and V8's growth factor. */
export type YoungSpace = {
  /** Bytes a semispace holds (what V8 doubles when it grows). */
  capacity(): number;
  /** 1 holds it; 2 lets V8 double it at its next growth. */
  setGrowth(factor: 1 | 2): void;
};

const GROWTH_FLAG = '--semi-space-growth-factor';

export const v8YoungSpace: YoungSpace = {
  capacity: () => {
    const s = getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
    return s ? s.space_used_size + s.space_available_size : 0;
  },
  setGrowth: (factor) => setFlagsFromString(`${GROWTH_FLAG}=${factor}`),
};

/** Someone chose the young generation's size on node's command line: theirs stands. */
export function youngGenerationChosen(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const chosen = /^--(max-semi-space-size|min-semi-space-size|semi-space-growth-factor|max-heap-size)(=|$)/;
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  return given.some((a) => chosen.test(a.replace(/_/g, '-')));
}

function chosenHere(): boolean {
  return youngGenerationChosen(process.execArgv, process.env.NODE_OPTIONS);
}

/**
 * Holds the young generation at its size, for a launch (before the bundle is compiled) and before its
 * code cache is saved. Nothing when the size was chosen on the command line.
 */
export function holdYoungGeneration(space: YoungSpace = v8YoungSpace, chosen: boolean = chosenHere()): void {
  if (chosen) return;
  try {
    space.setGrowth(1);
  } catch {
    // A V8 without the flag: it grows as it always did.
  }
}

/** Lets it grow while requests come, up to `cap` a semispace, and holds it otherwise. */
export class YoungGrowth {
  private busy = false;
  constructor(
    private readonly space: YoungSpace = v8YoungSpace,
    private readonly cap = YOUNG_CAP_BYTES,
  ) {}

  /** Requests started (true) or stopped (false) coming. */
  requests(busy: boolean): void {
    this.busy = busy;
    this.apply();
  }

  /** After each of V8's collections: it grows in them, so one that reached the cap is held at once. */
  collected(): void {
    this.apply();
  }

  private apply(): void {
    // Doubling is the only growth there is (the factor is 2): allowed while it stays within the cap.
    this.space.setGrowth(this.busy && this.space.capacity() * 2 <= this.cap ? 2 : 1);
  }
}

/**
 * Bounds this process's young generation from now on (`mws serve`): `onRequests` tells when requests start
 * and stop. Nothing when its size was chosen on node's command line, or without V8's flag.
 */
export function boundYoungGeneration(onRequests: (f: (busy: boolean) => void) => void): YoungGrowth | undefined {
  if (chosenHere()) return undefined;
  const growth = new YoungGrowth();
  try {
    growth.requests(false);
    new PerformanceObserver(() => {
      try {
        growth.collected();
      } catch {
        // as below
      }
    }).observe({ entryTypes: ['gc'] });
  } catch {
    return undefined;
  }
  onRequests((busy) => {
    try {
      growth.requests(busy);
    } catch {
      // A V8 without the flag: it grows as it always did.
    }
  });
  return growth;
}
