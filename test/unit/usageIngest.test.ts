// Usage ingestion: one reader at a time, a backlog read to its end in one pass that yields, the idle
// clock kept across a restart, and usage.json compact, bounded and written only when it changed.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY, setsHarness, type SetsHarness } from '../helpers/sets.js';
import { MAX_SESSIONS_PER_TOOL, USAGE_FILE } from '../../src-main/core/usage/usageStore.js';
import { TAIL_CHUNK_BYTES } from '../../src-main/core/usage/tail.js';

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
    const line = (i: number) => JSON.stringify({ ts: new Date(h.clock.now() - 1000 + (i % 1000)).toISOString(), agent: 'default', tool: i % 2 ? 'a' : 'b', via: 'direct', ok: true, ms: 1, client: 'c', session: `sess-${i % 500}` });
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
      h.clock.advance(60_000);
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
