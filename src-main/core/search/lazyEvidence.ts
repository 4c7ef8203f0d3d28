// What the kept pairs say (learnedEvidence.ts), built once: in slices off the request path after
// start-up, or at its first use if that comes first (a long history takes a noticeable part of a
// second to build). Changes to the pairs meanwhile are applied once the build is done.
import { TimeSlicer } from '../timeSlice.js';
import { LearnedEvidence, type LearnedPair } from './learnedEvidence.js';

type Change = [agent: string, pair: LearnedPair, sign: 1 | -1];

export class LazyEvidence {
  private evidence: LearnedEvidence;
  private built = false;
  /** The build in slices under way: its steps over the pairs kept when it started, and the changes since. */
  private warming: { steps: Generator<void, void, void>; changes: Change[] } | undefined;

  constructor(
    private readonly now: () => number,
    /** The pairs kept now, by agent. */
    private readonly pairs: () => Iterable<readonly [string, readonly LearnedPair[]]>,
  ) {
    this.evidence = new LearnedEvidence(now);
  }

  /** A pair was kept (1) or dropped (−1): the evidence follows, now or once its build is done. */
  apply(agent: string, pair: LearnedPair, sign: 1 | -1): void {
    if (this.built) this.evidence.apply(agent, pair, sign);
    else this.warming?.changes.push([agent, pair, sign]);
  }

  /**
   * Builds in slices of about `sliceMs` with the event loop free between them. Pairs that change
   * meanwhile are applied when the slices are done; a use that comes first finishes the build itself.
   */
  async warmInSlices(sliceMs: number, clock: () => number): Promise<void> {
    if (this.built || this.warming) return;
    const snapshot = [...this.pairs()].map(([agent, list]) => [agent, [...list]] as const);
    const evidence = this.evidence;
    const warming = {
      steps: (function* () {
        for (const [agent, list] of snapshot) {
          for (const p of list) {
            evidence.apply(agent, p, 1);
            yield;
          }
        }
      })(),
      changes: [] as Change[],
    };
    this.warming = warming;
    // The clock is read at every step: one pair's evidence is heavier than the usual step.
    const slicer = new TimeSlicer({ sliceMs, checkEvery: 1, now: clock });
    for (;;) {
      if (warming.steps.next().done) {
        this.finish();
        return;
      }
      // Finished by a use meanwhile, or stopped.
      if ((await slicer.maybeYield()) && this.warming !== warming) return;
    }
  }

  /** Stops a build in slices (on stop): what it built so far is dropped; a later use builds at once. */
  stop(): void {
    if (!this.warming) return;
    this.warming = undefined;
    this.evidence = new LearnedEvidence(this.now);
  }

  /** The evidence, built from every kept pair at its first use (later changes keep it up to date). */
  get(): LearnedEvidence {
    if (this.built) return this.evidence;
    if (this.warming) {
      this.finish();
      return this.evidence;
    }
    this.built = true;
    for (const [agent, list] of this.pairs()) for (const p of list) this.evidence.apply(agent, p, 1);
    return this.evidence;
  }

  private finish(): void {
    const w = this.warming!;
    while (!w.steps.next().done);
    for (const [agent, pair, sign] of w.changes) this.evidence.apply(agent, pair, sign);
    this.warming = undefined;
    this.built = true;
  }
}
