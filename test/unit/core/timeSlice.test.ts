// The one time-slicing helper (core/timeSlice.ts), driven by a clock the test moves.
import { describe, expect, it } from 'vitest';
import { TimeSlicer } from '../../../src-main/core/timeSlice.js';

describe('TimeSlicer', () => {
  it('yields once the slice is used up, reading the clock every checkEvery steps', async () => {
    let now = 0;
    let reads = 0;
    let pauses = 0;
    const s = new TimeSlicer({ sliceMs: 4, checkEvery: 8, now: () => (reads++, now), pause: async () => void pauses++ });
    reads = 0;
    for (let i = 0; i < 7; i++) expect(await s.maybeYield()).toBe(false);
    expect(reads).toBe(0);
    now = 3;
    expect(await s.maybeYield()).toBe(false); // the 8th step reads the clock: 3 ms < 4
    expect(reads).toBe(1);
    now = 5;
    for (let i = 0; i < 7; i++) await s.maybeYield();
    expect(await s.maybeYield()).toBe(true);
    expect(pauses).toBe(1);
    // A new slice starts after the pause.
    for (let i = 0; i < 8; i++) expect(await s.maybeYield()).toBe(false);
    // A heavy step counts for many.
    now = 20;
    expect(await s.maybeYield(8)).toBe(true);
  });
});
