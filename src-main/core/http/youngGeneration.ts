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
//   of calls or a report promotes its short-lived objects: tools/list p99 17-28 ms instead of 10-18);
// - when they stop, it is held again, and V8 gives it back in the next collection after a quiet spell
//   (http/garbage.ts).
// The cap is looked at after each collection, between tasks (http/garbage.ts's `gc` observer): one
// task that keeps more than the cap alive (a report over every agent) can double it past the cap
// meanwhile. It is held there, and given back with the rest.
// V8's code cache (cli/codeCache.ts) is refused by a process whose flags differ from those of the one
// that made it: the factor is 1 whenever this process compiles or saves its cache.
// The flag is the process's: the import's JSON worker thread (import/jsonWorker.ts) is held or grows
// with the main thread (not measured apart). Measured on Node 20's V8, which keeps a factor below 2 set
// at run time; a V8 that raises it back to its minimum of 2 just grows as it always did, and the code
// cache still matches (2 is the default).
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * The largest semispace requests may grow it to. At 5,000 tools × 100 agents (bench/scale, five runs
 * beside the build without this): 4 MB took RSS after the start from 156-167 to 114-122 MB and after
 * 10,000 calls from 165-198 to 153-172 MB, with tools/list and the first report as quick; 8 MB kept
 * 131 MB after the start (the first requests come while the start's index is built, and its survivors
 * grow it while they come).
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

/** V8's young generation, as it reports it (http/garbage.ts reads it here too). */
export const newSpace = () => getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');

export const v8YoungSpace: YoungSpace = {
  capacity: () => {
    const s = newSpace();
    return s ? s.space_used_size + s.space_available_size : 0;
  },
  setGrowth: (factor) => setFlagsFromString(`${GROWTH_FLAG}=${factor}`),
};

/**
 * Someone chose the young generation's size on node's command line (V8 takes `-flag` and `--flag`, `_`
 * or `-`; NODE_OPTIONS may quote a word): theirs stands.
 */
export function youngGenerationChosen(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const chosen = /^--?(max-semi-space-size|min-semi-space-size|semi-space-growth-factor|max-heap-size)(=|$)/;
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  return given.some((a) => chosen.test(a.replace(/^["']/, '').replace(/_/g, '-')));
}

function chosenHere(): boolean {
  return youngGenerationChosen(process.execArgv, process.env.NODE_OPTIONS);
}

/**
 * Holds the young generation at its size, for a launch (before the bundle is compiled) and before its
 * code cache is saved. Nothing when the size was chosen on the command line.
 */
export function holdYoungGeneration(space: YoungSpace = v8YoungSpace, chosen: boolean = chosenHere()): void {
  if (!chosen) space.setGrowth(1);
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
 * and stop, `onCollections` after V8's collections (false when it cannot: http/garbage.ts). Nothing when
 * its size was chosen on node's command line.
 */
export function boundYoungGeneration(
  onRequests: (f: (busy: boolean) => void) => void,
  onCollections: (f: () => void) => boolean,
): YoungGrowth | undefined {
  if (chosenHere()) return undefined;
  const growth = new YoungGrowth();
  if (!onCollections(() => growth.collected())) {
    // Without a look after each collection the cap could not be kept: V8 grows it as it always did.
    v8YoungSpace.setGrowth(2);
    return undefined;
  }
  onRequests((busy) => growth.requests(busy));
  return growth;
}
