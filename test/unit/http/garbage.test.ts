// Full collections after bursts (src-main/core/http/garbage.ts), on injected time: at most one a
// minute, and one when requests stop after the heap grew well past what the last one left.
import { describe, expect, it } from 'vitest';
import { exposeGc, FullCollector, IdleCollector, IDLE_CHECK_MS } from '../../../src-main/core/http/garbage.js';
import { spawnSync } from 'node:child_process';

function fakeTime() {
  const t = { now: 0 };
  const timers: Array<{ at: number; f: () => void; every?: number; stopped?: boolean }> = [];
  const advance = (to: number) => {
    for (;;) {
      const due = timers.filter((x) => !x.stopped && x.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      t.now = due.at;
      if (due.every) due.at += due.every;
      else due.stopped = true;
      due.f();
    }
    t.now = to;
  };
  const later = (f: () => void, ms: number) => void timers.push({ at: t.now + ms, f });
  const every = (f: () => void, ms: number) => {
    const x = { at: t.now + ms, f, every: ms };
    timers.push(x);
    return () => void Object.assign(x, { stopped: true });
  };
  const live = () => timers.filter((x) => !x.stopped).length;
  return { t, advance, later, every, live };
}

describe('the full collection after a burst', () => {
  // Measured against a listener in its own process (120 bodies stalled one byte short, twice, 20 s
  // apart): without a collection the heap stays +42–68 MB for as long as it is idle; the first flood's
  // collection brings it back to +7 MB, but the second flood, inside the minute, was never collected.
  it('runs at most once a minute, and a burst inside the minute is collected when the minute ends', () => {
    const f = fakeTime();
    const collected: number[] = [];
    const c = new FullCollector(
      () => f.t.now,
      60_000,
      () => collected.push(f.t.now),
      f.later,
    );
    c.drained();
    f.advance(1_000);
    expect(collected).toEqual([1_000]);
    // A second flood ends 20 s later, and many more after it (an attacker looping floods): one collection, at the minute.
    for (const at of [20_000, 21_000, 30_000, 59_000]) {
      f.advance(at);
      c.drained();
    }
    expect(collected).toEqual([1_000]);
    f.advance(61_000);
    expect(collected).toEqual([1_000, 61_000]);
    expect(f.live()).toBe(0);
  });

  it('collects once requests stop after the heap grew, not while they come, and not after a burst that left the heap as it was', () => {
    const f = fakeTime();
    const heap = { used: 50 };
    const collected: number[] = [];
    const full = new FullCollector(
      () => f.t.now,
      60_000,
      () => {
        collected.push(f.t.now);
        heap.used = 60; // what is live after it
      },
      f.later,
    );
    const idle = new IdleCollector(full, () => heap.used, f.every, 24);
    // A burst of requests over 10 s: the heap grows, nothing is collected while they come.
    for (let ms = 0; ms < 10_000; ms += 100) {
      f.advance(ms);
      idle.touch();
      heap.used += 1;
    }
    expect(collected).toEqual([]);
    // Quiet: a whole check without a request, then the settle.
    f.advance(9_900 + 2 * IDLE_CHECK_MS + 1_000);
    expect(collected).toHaveLength(1);
    // Nothing wakes an idle process.
    expect(f.live()).toBe(0);
    // A small burst two minutes later grows the heap by little: no collection, and again no timer left.
    f.advance(130_000);
    for (let i = 0; i < 10; i++) idle.touch();
    heap.used += 5;
    f.advance(140_000);
    expect(collected).toHaveLength(1);
    expect(f.live()).toBe(0);
  });
});

describe('who turns on full collections', () => {
  it('is the process entry, never the module: collecting without exposeGc sets no V8 flag and defines no gc', () => {
    // A child process of its own, so this worker's flags and globals stay as they were.
    const run = (code: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    const module = JSON.stringify(new URL('../../../src-main/core/http/garbage.ts', import.meta.url).href);
    const quiet = run(
      `const g = await import(${module}); new g.FullCollector(() => 0, 0, undefined, (f) => f()).drained(); console.log(typeof globalThis.gc);`,
    );
    expect(quiet.stdout.trim(), quiet.stderr).toBe('undefined');
    const exposed = run(
      `const g = await import(${module}); g.exposeGc(); console.log(typeof globalThis.gc); new g.FullCollector(() => 0, 0, undefined, (f) => f()).drained(); console.log(typeof globalThis.gc);`,
    );
    // Allowed at start, made at the first collection.
    expect(exposed.stdout.trim().split('\n'), exposed.stderr).toEqual(['undefined', 'function']);
    expect(typeof exposeGc).toBe('function');
  });

  it("leaves V8's flags as they were after a collection, so code it caches is accepted by a new process", () => {
    // V8 refuses code cached under other flags. `mws serve` saves the CLI's code cache seconds after
    // start, often after its first collection (src-main/cli/codeCache.ts): with --expose-gc left on, every
    // next start compiled from scratch.
    const run = (code: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    const module = JSON.stringify(new URL('../../../src-main/core/http/garbage.ts', import.meta.url).href);
    const source = JSON.stringify('function f(a) { return a + 1 } f(1)');
    const made = run(`const g = await import(${module}); const { Script } = await import('node:vm'); g.exposeGc();
      new g.FullCollector(() => 0, 0, undefined, (f) => f()).drained();
      const s = new Script(${source}); s.runInThisContext();
      console.log(typeof globalThis.gc, s.createCachedData().toString('base64'));`);
    const [gc, data] = made.stdout.trim().split(' ');
    expect(gc, made.stderr).toBe('function');
    const used = run(`const { Script } = await import('node:vm');
      console.log(new Script(${source}, { cachedData: Buffer.from('${data}', 'base64') }).cachedDataRejected);`);
    expect(used.stdout.trim(), used.stderr).toBe('false');
  });

  it('gives back the pages a burst was spread over, not only its objects', () => {
    // 400,000 objects of which one in fifty stays: a plain full collection frees 98 % of them and keeps
    // nearly every old-space page (tens of MB committed for ~1 MB live); the collection here compacts.
    const module = JSON.stringify(new URL('../../../src-main/core/http/garbage.ts', import.meta.url).href);
    const code = `const g = await import(${module}); g.exposeGc();
      const v8 = await import('node:v8');
      const old = () => v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space').space_size;
      new g.FullCollector(() => 0, 0, undefined, (f) => f()).drained();
      const before = old();
      let all = []; for (let i = 0; i < 400000; i++) all.push({ a: 'x' + i, b: [i, i + 1] });
      const keep = all.filter((_, i) => i % 50 === 0); all = null;
      const grown = old() - before;
      new g.FullCollector(() => 0, 0, undefined, (f) => f()).drained();
      console.log(JSON.stringify({ grown, left: old() - before, kept: keep.length }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    const m = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}', (_k, v: unknown) => v) as { grown: number; left: number; kept: number };
    expect(m.kept, r.stderr).toBe(8000);
    expect(m.grown).toBeGreaterThan(20 * 1024 * 1024);
    expect(m.left).toBeLessThan(m.grown / 4);
  });
});
