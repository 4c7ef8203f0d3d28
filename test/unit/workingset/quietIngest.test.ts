// Usage kept current: records are read a moment after calls stop, at least every INGEST_MAX_GAP_MS
// while they keep coming, never two reads at once, and not at all before a serving run starts it.
import { describe, expect, it } from 'vitest';
import { INGEST_MAX_GAP_MS, INGEST_QUIET_MS, QuietIngest } from '../../../src-main/core/workingset/quietIngest.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import type { CallRecorder, CallRecord } from '../../../src-main/core/usage/callLog.js';

function harness(shared?: { settleMs: number }) {
  let now = 0;
  let tick: (() => void) | undefined;
  const timers = { started: 0, cancelled: 0 };
  const log = new MemoryLogger();
  const q = new QuietIngest({
    log,
    now: () => now,
    ...(shared ? { shared: true, settleMs: shared.settleMs } : {}),
    every: (f, ms) => {
      expect(ms).toBe(INGEST_QUIET_MS);
      timers.started++;
      tick = f;
      return () => {
        timers.cancelled++;
        tick = undefined;
      };
    },
  });
  const recorded: string[] = [];
  const inner: CallRecorder = {
    call: (r) => void recorded.push(r.tool),
    search: () => void recorded.push('search'),
    droppedRecords: () => 0,
    flush: async () => {},
    close: async () => {},
  };
  const recorder = q.recorder(inner);
  const call = (tool = 't') => recorder.call({ agent: 'a', tool } as CallRecord);
  /** One check of the timer (INGEST_QUIET_MS later). */
  const check = async () => {
    now += INGEST_QUIET_MS;
    tick?.();
    await new Promise((r) => setImmediate(r));
  };
  return { q, call, check, timers, recorded, log, advance: (ms: number) => (now += ms), running: () => tick !== undefined };
}

describe('QuietIngest', () => {
  it('reads once calls stop for a whole check, then leaves no timer running', async () => {
    const h = harness();
    let reads = 0;
    h.q.start(async () => void reads++);
    h.call();
    h.call();
    expect(h.recorded).toEqual(['t', 't']);
    await h.check(); // calls came since the timer started
    expect(reads).toBe(0);
    await h.check(); // none since the last check: quiet
    expect(reads).toBe(1);
    expect(h.running()).toBe(false);
    expect(h.timers).toEqual({ started: 1, cancelled: 1 });
    // The next burst starts a timer again.
    h.call();
    await h.check();
    await h.check();
    expect(reads).toBe(2);
  });

  it('reads at least every INGEST_MAX_GAP_MS while calls never stop', async () => {
    const h = harness();
    let reads = 0;
    h.q.start(async () => void reads++);
    for (let t = 0; t < INGEST_MAX_GAP_MS / INGEST_QUIET_MS + 2; t++) {
      h.call();
      await h.check();
    }
    expect(reads).toBe(1);
    expect(h.running()).toBe(true);
  });

  it('never runs two reads at once, and a failed read is logged, not thrown', async () => {
    const h = harness();
    let release!: () => void;
    let reads = 0;
    h.q.start(() => {
      reads++;
      return reads === 1 ? new Promise<void>((r) => (release = r)) : Promise.reject(new Error('disk gone'));
    });
    h.call();
    await h.check();
    await h.check();
    expect(reads).toBe(1);
    h.call();
    await h.check();
    await h.check(); // quiet, but the first read is still under way
    expect(reads).toBe(1);
    release();
    await new Promise((r) => setImmediate(r));
    await h.check();
    expect(reads).toBe(2);
    await new Promise((r) => setImmediate(r));
    expect(h.log.lines.join('\n')).toMatch(/calls could not be read into usage now \(disk gone\)/);
  });

  it('does nothing before a serving run starts it, and nothing after it stops', async () => {
    const h = harness();
    h.call();
    expect(h.timers.started).toBe(0);
    let reads = 0;
    h.q.start(async () => void reads++);
    h.call();
    await h.q.stop();
    await h.check();
    expect(reads).toBe(0);
    expect(h.recorded).toEqual(['t', 't']);
  });

  it('on a shared log, waits until the latest record settled before reading it', async () => {
    const settleMs = 10_000;
    const h = harness({ settleMs });
    let reads = 0;
    h.q.start(async () => void reads++);
    h.call();
    await h.check();
    // quiet from here on, but the record is not readable before it settled
    for (let t = 0; t < settleMs / INGEST_QUIET_MS - 1; t++) await h.check();
    expect(reads).toBe(0);
    await h.check();
    expect(reads).toBe(1);
    expect(h.running()).toBe(true);
  });

  it("on a shared log, reads every INGEST_MAX_GAP_MS without calls here (other replicas' calls)", async () => {
    const h = harness({ settleMs: 0 });
    let reads = 0;
    h.q.start(async () => void reads++);
    expect(h.running()).toBe(true);
    for (let t = 0; t < INGEST_MAX_GAP_MS / INGEST_QUIET_MS - 1; t++) await h.check();
    expect(reads).toBe(0);
    await h.check();
    expect(reads).toBe(1);
    for (let t = 0; t < INGEST_MAX_GAP_MS / INGEST_QUIET_MS; t++) await h.check();
    expect(reads).toBe(2);
    await h.q.stop();
    expect(h.running()).toBe(false);
  });
});
