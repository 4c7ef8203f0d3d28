// The five-minute working-set schedule on the injected clock: no sleeping, no fake timers.
import { describe, expect, it } from 'vitest';
import { ManualClock, every } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { SWEEP_INTERVAL_MS, startSweepSchedule } from '../../../src-main/core/workingset/scheduler.js';
import type { CycleReport } from '../../../src-main/core/workingset/manager.js';

const MIN = 60_000;

function fakeSets() {
  const calls: Array<{ now: number; whenQuiet: boolean | undefined }> = [];
  let finish: (() => void) | undefined;
  let hold = false;
  let fail = false;
  return {
    calls,
    holdNext: () => (hold = true),
    failNext: () => (fail = true),
    release: () => finish?.(),
    sets: {
      cycle: (now: number, opts: { whenQuiet?: boolean } = {}) => {
        calls.push({ now, whenQuiet: opts.whenQuiet });
        if (fail) {
          fail = false;
          return Promise.reject(new Error('disk gone'));
        }
        if (!hold) return Promise.resolve({} as CycleReport);
        hold = false;
        return new Promise<CycleReport>((resolve) => (finish = () => resolve({} as CycleReport)));
      },
    },
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('the working-set schedule', () => {
  it('runs a quiet cycle every five minutes of the clock, at the clock time', async () => {
    const clock = new ManualClock();
    const start = clock.now();
    const f = fakeSets();
    const stop = startSweepSchedule(f.sets, clock, new MemoryLogger());
    expect(SWEEP_INTERVAL_MS).toBe(5 * MIN);
    clock.advance(4 * MIN);
    expect(f.calls).toHaveLength(0);
    clock.advance(1 * MIN);
    expect(f.calls).toEqual([{ now: start + 5 * MIN, whenQuiet: true }]);
    await settle();
    clock.advance(10 * MIN);
    await settle();
    expect(f.calls.map((c) => c.now - start)).toEqual([5 * MIN, 10 * MIN]);
    await stop();
  });

  it('never starts a cycle while the last one runs, and stop waits for it and ends the schedule', async () => {
    const clock = new ManualClock();
    const f = fakeSets();
    const stop = startSweepSchedule(f.sets, clock, new MemoryLogger());
    f.holdNext();
    clock.advance(5 * MIN);
    clock.advance(30 * MIN);
    expect(f.calls).toHaveLength(1);
    let stopped = false;
    const stopping = stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    f.release();
    await stopping;
    clock.advance(60 * MIN);
    expect(f.calls).toHaveLength(1);
  });

  it('a failed cycle is logged and the next one still runs', async () => {
    const clock = new ManualClock();
    const f = fakeSets();
    const log = new MemoryLogger();
    const stop = startSweepSchedule(f.sets, clock, log);
    f.failNext();
    clock.advance(5 * MIN);
    await settle();
    expect(log.lines.some((l) => l.includes('working-set sweep failed: disk gone'))).toBe(true);
    clock.advance(5 * MIN);
    expect(f.calls).toHaveLength(2);
    await stop();
  });

  it('every() without a clock timer falls back to an unref’d setInterval', () => {
    const cancel = every({ now: () => Date.now() }, 60 * MIN, () => {});
    expect(typeof cancel).toBe('function');
    cancel();
  });
});

describe('the schedule on a fleet', () => {
  it('runs the cycle only while this process leads, and takes over at the next tick once it does', async () => {
    const clock = new ManualClock();
    const f = fakeSets();
    let leading = false;
    const stop = startSweepSchedule(f.sets, clock, new MemoryLogger(), async () => leading);
    clock.advance(5 * MIN);
    await settle();
    clock.advance(5 * MIN);
    await settle();
    expect(f.calls).toHaveLength(0);
    // The leader died: this one holds the lock from its next question on.
    leading = true;
    clock.advance(5 * MIN);
    await settle();
    expect(f.calls).toHaveLength(1);
    await stop();
  });
});
