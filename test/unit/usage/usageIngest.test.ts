// Usage ingestion: one reader at a time, a backlog read to its end in one pass that yields, the idle
// clock kept across a restart, and usage.json compact, bounded and written only when it changed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageIngest } from '../../../src-main/core/workingset/ingest.js';
import type { Config } from '../../../src-main/core/config/schema.js';
import type { UsageStore } from '../../../src-main/core/usage/usageStore.js';
import type { PinSources } from '../../../src-main/core/workingset/pinSources.js';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY, setsHarness, type SetsHarness } from '../../helpers/sets.js';
import { INGEST_SLICE_MS, MAX_SESSIONS_PER_TOOL, SESSION_GAP_MS, Slicer, USAGE_FILE } from '../../../src-main/core/usage/usageStore.js';
import { TAIL_CHUNK_BYTES } from '../../../src-main/core/usage/tail.js';

let h: SetsHarness;
afterEach(() => h?.close());

describe('one reader at a time', () => {
  it('counts 10 logged calls once when two reads run at once', async () => {
    h = await setsHarness();
    for (let i = 0; i < 10; i++) await h.call('a', { session: `s${i % 3}` });
    await Promise.all([h.sets.ingest(h.clock.now()), h.sets.ingest(h.clock.now())]);
    expect(h.usage.tallies('default').a).toEqual({ ok: 10, failed: 0 });
  });

  it('counts them once when a report reads while the cycle reads', async () => {
    h = await setsHarness();
    for (let i = 0; i < 10; i++) await h.call('b', { session: `s${i % 3}` });
    await Promise.all([h.sets.cycle(h.clock.now()), h.sets.ingest(h.clock.now()), h.sets.cycle(h.clock.now(), { dryRun: true })]);
    expect(h.usage.tallies('default').b).toEqual({ ok: 10, failed: 0 });
    const sessions = h.usage.usage('default').b!;
    expect(Object.values(sessions).reduce((n, s) => n + s.calls, 0)).toBe(10);
  });

  it('never lets a dry run undo a real cycle running beside it', async () => {
    h = await setsHarness();
    await h.call('a', { session: 's1' });
    h.clock.advance(SESSION_GAP_MS); // another work session
    await h.call('a', { session: 's2' });
    await Promise.all([h.sets.cycle(h.clock.now(), { dryRun: true }), h.sets.cycle(h.clock.now())]);
    expect(h.listed()).toEqual(['a']);
  });
});

describe('the idle clock across a restart', () => {
  it('keeps the last use read before the restart, so a used tool is not demoted as idle', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    h.clock.advance(15 * DAY);
    await h.call('a', { session: 's1' });
    await h.sets.ingest(h.clock.now()); // a report reads the log: the cursor moves past the call
    const usedAt = h.clock.now();
    await h.close();
    h = await setsHarness({}, undefined, h.stateDir);
    expect(h.sets.members('default')[0]).toMatchObject({ tool: 'a', lastUsedAt: usedAt });
    // 22 days after promotion, 7 after the call: inside the 21-day idle window.
    expect(h.sets.previewSweep(usedAt + 7 * DAY)).toEqual([]);
    expect(h.sets.previewSweep(usedAt + 22 * DAY).map((d) => `${d.tool}:${d.cause}`)).toEqual(['a:idle']);
  });
});

describe('a backlog', () => {
  it('is read to its end in one read, in chunks that yield to other work', async () => {
    h = await setsHarness();
    // More than three chunks of calls.jsonl, written at once as a long-stopped app would find it.
    const line = (i: number) =>
      JSON.stringify({
        ts: new Date(h.clock.now() - 1000 + (i % 1000)).toISOString(),
        agent: 'default',
        tool: i % 2 ? 'a' : 'b',
        via: 'direct',
        ok: true,
        ms: 1,
        client: 'c',
        session: `sess-${i % 500}`,
      });
    const lines: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 3.5 * TAIL_CHUNK_BYTES; i++) {
      const l = line(i);
      lines.push(l);
      bytes += l.length + 1;
    }
    writeFileSync(join(h.stateDir, 'calls.jsonl'), lines.join('\n') + '\n');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    try {
      await h.sets.ingest(h.clock.now());
    } finally {
      clearInterval(ticker);
    }
    const t = h.usage.tallies('default');
    expect(t.a!.ok + t.b!.ok).toBe(lines.length);
    // The timer ran while the backlog was parsed: the read gave the event loop turns between slices.
    expect(ticks).toBeGreaterThan(1);
  });
});

describe('usage.json', () => {
  it('is compact, bounded per tool, and not rewritten when nothing changed', async () => {
    h = await setsHarness();
    const sessions = MAX_SESSIONS_PER_TOOL * 4;
    for (let i = 0; i < sessions; i++) {
      await h.call('a', { session: `s${i}` });
      h.clock.advance(SESSION_GAP_MS); // each its own work session
    }
    await h.sets.cycle(h.clock.now());
    const file = join(h.stateDir, USAGE_FILE);
    const text = readFileSync(file, 'utf8');
    expect(text.trimEnd().includes('\n')).toBe(false);
    const stored = JSON.parse(text) as { agents: { default: { a: Record<string, unknown> } } };
    expect(Object.keys(stored.agents.default.a).length).toBeLessThanOrEqual(2 * MAX_SESSIONS_PER_TOOL + 1);
    // The rule still sees every session and every call.
    expect(h.sets.previewUsage(h.clock.now()).default!.find((c) => c.tool === 'a')).toMatchObject({ sessions, calls: sessions });
    const before = statSync(file);
    await h.sets.cycle(h.clock.now());
    await h.sets.ingest(h.clock.now());
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});

describe('a backlog of many calls', () => {
  it('hands the idle clock the latest call per agent and tool, whatever order the log holds them in', async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.sets.promote('default', 'b', 'v', 'agent');
    const t = h.clock.now();
    // Out of order on purpose: the latest call of 'a' is not its last line.
    await h.call('a', { at: t - 3000 });
    await h.call('a', { at: t - 1000 });
    await h.call('a', { at: t - 2000 });
    await h.call('b', { at: t - 5000, agent: 'other' });
    await h.call('b', { at: t - 4000 });
    await h.call('b', { at: t - 500, ok: false });
    const used = await h.usage.ingestCallLog();
    expect(used.sort((x, y) => `${x.agent}${x.tool}`.localeCompare(`${y.agent}${y.tool}`))).toEqual([
      { agent: 'default', tool: 'a', ts: t - 1000 },
      { agent: 'default', tool: 'b', ts: t - 4000 },
      { agent: 'other', tool: 'b', ts: t - 5000 },
    ]);
  });

  it("sets each member's last use to its latest call through a cycle", async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    const t = h.clock.now();
    await h.call('a', { at: t - 1000 });
    await h.call('a', { at: t - 3000 });
    await h.sets.ingest(t);
    expect(h.sets.members('default')[0]).toMatchObject({ tool: 'a', lastUsedAt: t - 1000 });
  });
});

describe('usage.json written in pieces', () => {
  it('holds exactly what one JSON.stringify of the usage would, across many pieces', async () => {
    h = await setsHarness();
    const t = h.clock.now() - 3600_000;
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++) {
      lines.push(
        JSON.stringify({
          ts: new Date(t + i * 100).toISOString(),
          agent: `agent-${i % 7}`,
          tool: `tool-${i % 900}`,
          via: 'direct',
          ok: i % 13 !== 0,
          ms: 1,
          client: 'c',
          session: `s${i % 40}`,
        }),
      );
      if (i % 50 === 0) lines.push(JSON.stringify({ ts: new Date(t + i * 100).toISOString(), agent: `agent-${i % 7}`, event: 'search' }));
    }
    writeFileSync(join(h.stateDir, 'calls.jsonl'), lines.join('\n') + '\n');
    await h.sets.ingest(h.clock.now());
    const text = readFileSync(join(h.stateDir, USAGE_FILE), 'utf8');
    // Several 64 KB pieces, and the same bytes as the one-string form, key order included.
    expect(text.length).toBeGreaterThan(4 * 64 * 1024);
    expect(text).toBe(JSON.stringify(JSON.parse(text)) + '\n');
    const stored = JSON.parse(text) as { tallies: Record<string, Record<string, { ok: number }>> };
    expect(stored.tallies['agent-3']).toEqual(h.usage.tallies('agent-3'));
  });
});

describe('rolled-up sessions', () => {
  it('are keyed by the UTC day of their last call, across days and back again', async () => {
    h = await setsHarness();
    const day0 = Math.floor(h.clock.now() / DAY) * DAY;
    // Sessions over three days, then more on the first day again, enough to fold most of them.
    const days = [0, 1, 2, 0];
    let s = 0;
    for (const d of days) {
      for (let i = 0; i < MAX_SESSIONS_PER_TOOL; i++) await h.call('a', { session: `s${s++}`, at: day0 + d * DAY + i * SESSION_GAP_MS });
    }
    await h.sets.ingest(h.clock.now());
    const keys = Object.keys(h.usage.usage('default').a!)
      .filter((k) => k.startsWith('day:'))
      .sort();
    const iso = (d: number) => `day:${new Date(day0 + d * DAY).toISOString().slice(0, 10)}`;
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect([iso(0), iso(1), iso(2)]).toContain(k);
    const folded = Object.entries(h.usage.usage('default').a!).filter(([k]) => k.startsWith('day:'));
    for (const [k, u] of folded) expect(k).toBe(`day:${new Date(u.last).toISOString().slice(0, 10)}`);
    expect(Object.values(h.usage.usage('default').a!).reduce((n, u) => n + (u.sessions ?? 1), 0)).toBe(s);
  });
});

describe('the slicer', () => {
  it('carries one time budget across the steps that share it, so back-to-back steps do not add up', async () => {
    let now = 0;
    let pauses = 0;
    const slicer = new Slicer(
      () => now,
      async () => void pauses++,
    );
    // Step one uses all but 2 ms of the budget.
    for (let i = 0; i < 64 * (INGEST_SLICE_MS - 2); i++) {
      if (i % 64 === 0) now += 1;
      await slicer.maybeYield();
    }
    expect(pauses).toBe(0);
    // Step two, on the same slicer, pauses as soon as the budget is spent, not after a budget of its own.
    for (let i = 0; i < 64 * 3; i++) {
      if (i % 64 === 0) now += 1;
      await slicer.maybeYield();
    }
    expect(pauses).toBe(1);
  });
});

/** A UsageIngest whose reads of the call log each wait until the test lets them end (`reads[i]()`). */
function heldReads() {
  const reads: Array<() => void> = [];
  const ingest = new UsageIngest({
    config: { transcripts: [], serverName: 'mws' } as unknown as Config,
    usage: {
      ingestCallLog: () => new Promise<never[]>((resolve) => reads.push(() => resolve([]))),
      ingestTranscripts: async () => [],
      save: async () => {},
    } as unknown as UsageStore,
    pins: { readFiles: async () => {} } as unknown as PinSources,
    markUsed: () => {},
  });
  return { reads, ingest };
}

describe('a reader arriving while a read is in flight', () => {
  it('waits for a read begun after it asked (shared by all who arrive meanwhile), so it sees what was recorded since', async () => {
    const { reads, ingest } = heldReads();
    const settled: string[] = [];
    const first = ingest.run(0).then(() => settled.push('quiet read'));
    // a call is recorded now, then the cycle and a report ask
    const cycle = ingest.run(0).then(() => settled.push('cycle'));
    const report = ingest.run(0).then(() => settled.push('report'));
    expect(reads).toHaveLength(1);
    reads[0]!();
    await first;
    await vi.waitFor(() => expect(reads).toHaveLength(2), { timeout: 5000, interval: 1 });
    expect(settled).toEqual(['quiet read']);
    reads[1]!();
    await Promise.all([cycle, report]);
    expect(settled).toEqual(['quiet read', 'cycle', 'report']);
    expect(reads).toHaveLength(2);
    // nothing in flight: the next reader begins its own read at once
    const next = ingest.run(0);
    expect(reads).toHaveLength(3);
    reads[2]!();
    await next;
  });
});

describe('a reader arriving just after a read began', () => {
  it('is not served by a read begun before it asked, even one begun while others waited', async () => {
    const { reads, ingest } = heldReads();
    const first = ingest.run(0);
    const waiting = ingest.run(0);
    reads[0]!();
    await first;
    // the waiting reader's read has begun; one arriving now waits for another
    await vi.waitFor(() => expect(reads).toHaveLength(2), { timeout: 5000, interval: 1 });
    let lateDone = false;
    const late = ingest.run(0).then(() => (lateDone = true));
    reads[1]!();
    await waiting;
    await vi.waitFor(() => expect(reads).toHaveLength(3), { timeout: 5000, interval: 1 });
    expect(lateDone).toBe(false);
    reads[2]!();
    await late;
  });
});
