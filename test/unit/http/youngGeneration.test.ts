// How big V8's young generation may grow (src-main/core/http/youngGeneration.ts): held while no requests
// come, let double while they do up to the cap, and held at once when a collection reached it. Decisions
// on a stand-in space here; a real V8 in its own process below (the flag is the process's).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { built } from '../../helpers/build.js';
import {
  YOUNG_CAP_BYTES,
  YoungGrowth,
  holdYoungGeneration,
  youngGenerationChosen,
  type YoungSpace,
} from '../../../src-main/core/http/youngGeneration.js';
import { FullCollector, IDLE_CHECK_MS, IdleCollector } from '../../../src-main/core/http/garbage.js';

const MB = 1024 * 1024;

/** A young generation whose semispace holds `capacity` bytes (V8 reports a little less than the size: page headers). */
function space(capacity: number) {
  const s = { capacity, factors: [] as number[] };
  const y: YoungSpace = { capacity: () => s.capacity, setGrowth: (f) => void s.factors.push(f) };
  return { s, y };
}

describe("the young generation's growth", () => {
  it('is held while no requests come, whatever its size', () => {
    const { s, y } = space(0.98 * MB);
    const g = new YoungGrowth(y);
    g.collected();
    g.requests(false);
    expect(s.factors).toEqual([1, 1]);
  });

  it('may double while requests come, as long as the doubled size stays within the cap', () => {
    const { s, y } = space(0.98 * MB);
    const g = new YoungGrowth(y);
    g.requests(true);
    s.capacity = 1.97 * MB;
    g.collected();
    // 3.93 MB a semispace: one more doubling would pass the 4 MB cap, so it is held at once.
    s.capacity = 3.93 * MB;
    g.collected();
    expect(s.factors).toEqual([2, 2, 1]);
    expect(YOUNG_CAP_BYTES).toBe(4 * MB);
  });

  it('is held again when requests stop, and may grow again when they come back', () => {
    const { s, y } = space(0.98 * MB);
    const g = new YoungGrowth(y);
    g.requests(true);
    g.requests(false);
    g.collected();
    g.requests(true);
    expect(s.factors).toEqual([2, 1, 1, 2]);
  });

  it('is left alone when node was started with a size for it', () => {
    expect(youngGenerationChosen(['--max-semi-space-size=16'], undefined)).toBe(true);
    expect(youngGenerationChosen([], '--inspect --max_semi_space_size=4')).toBe(true);
    expect(youngGenerationChosen(['--semi-space-growth-factor=4'], '')).toBe(true);
    expect(youngGenerationChosen(['--max-heap-size=512'], undefined)).toBe(true);
    // V8 takes one dash too, and NODE_OPTIONS may quote a word.
    expect(youngGenerationChosen(['-max-semi-space-size=16'], undefined)).toBe(true);
    expect(youngGenerationChosen([], '"--max-semi-space-size=16"')).toBe(true);
    expect(youngGenerationChosen(['--max-old-space-size=4096', '--expose-gc'], '--enable-source-maps')).toBe(false);
    expect(youngGenerationChosen([], undefined)).toBe(false);
    const { s, y } = space(MB);
    holdYoungGeneration(y, true);
    expect(s.factors).toEqual([]);
    holdYoungGeneration(y, false);
    expect(s.factors).toEqual([1]);
  });
});

describe('requests starting and stopping (IdleCollector.onRequests)', () => {
  it('says so once when requests start, and once when a whole check passed without one', () => {
    const ticks: Array<() => void> = [];
    let stopped = 0;
    const every = (f: () => void) => {
      ticks.push(f);
      return () => void stopped++;
    };
    const full = new FullCollector(
      () => 0,
      5_000,
      () => true,
      () => {},
    );
    const idle = new IdleCollector(full, () => ({ young: 0, old: 0 }), every);
    const said: boolean[] = [];
    idle.onRequests((busy) => said.push(busy));
    idle.touch();
    idle.touch();
    expect(said).toEqual([true]);
    ticks[0]!(); // a request came within this check
    idle.touch();
    ticks[0]!();
    expect(said).toEqual([true]);
    ticks[0]!(); // none since the last check
    expect(said).toEqual([true, false]);
    expect(stopped).toBe(1);
    idle.touch();
    expect(said).toEqual([true, false, true]);
    expect(IDLE_CHECK_MS).toBe(1_000);
  });
});

describe('a listener that throws (IdleCollector.onRequests)', () => {
  it('is its own loss: the request and the others still go on', () => {
    const full = new FullCollector(
      () => 0,
      5_000,
      () => true,
      () => {},
    );
    const idle = new IdleCollector(
      full,
      () => ({ young: 0, old: 0 }),
      () => () => {},
    );
    const said: boolean[] = [];
    idle.onRequests(() => {
      throw new Error('a bug');
    });
    idle.onRequests((busy) => said.push(busy));
    expect(() => idle.touch()).not.toThrow();
    expect(said).toEqual([true]);
  });
});

describe("a real V8's young generation (a process of its own)", () => {
  it('stays at its first size while held, and while requests come grows within the cap', () => {
    // Its own largest semispace (16 MB), whatever the host's memory or a NODE_OPTIONS would make it.
    const r = spawnSync(process.execPath, ['--max-semi-space-size=16', built('youngGrowth')], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(r.status, r.stderr).toBe(0);
    const { held, busiest, first } = JSON.parse(r.stdout) as { held: number; busiest: number; first: number };
    // Held: ~24 MB survived its collections and it kept V8's first size (which grows past 1 MB without the hold).
    expect(held).toBeLessThanOrEqual(first);
    // Busy: ~48 MB more survived, a MB between two looks; it grew (V8 grows on survivors) but not past the cap.
    expect(busiest).toBeGreaterThan(first);
    expect(busiest).toBeLessThanOrEqual(YOUNG_CAP_BYTES);
  }, 120_000);
});
