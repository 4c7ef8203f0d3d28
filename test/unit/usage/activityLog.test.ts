// The activity log on disk: bounded by rotation (calls.jsonl → calls.1.jsonl), read newest first
// across both files, and the usage reader loses no call written just before a rotation.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setsHarness, type SetsHarness } from '../../helpers/sets.js';
import { CALL_LOG_ROTATED_FILE, recentCalls } from '../../../src-main/core/usage/activity.js';
import { CallLog } from '../../../src-main/core/usage/callLog.js';
import { UpstreamJournal, UPSTREAM_LOG_LINES } from '../../../src-main/core/upstream/journal.js';

let h: SetsHarness;
afterEach(async () => h?.close());

describe('rotation', () => {
  it('moves calls.jsonl aside at the write that would take it past its bound; reads span both, newest first', async () => {
    h = await setsHarness();
    let max = 10_000_000;
    const log = new CallLog(h.stateDir, { maxBytes: () => max });
    const rec = (tool: string, agent = 'default') => ({
      ts: new Date(h.clock.now()).toISOString(),
      agent,
      tool,
      via: 'direct' as const,
      ok: true,
      ms: 1,
      client: 't',
      session: 's1',
      upstream: 'v',
    });
    for (let i = 0; i < 50; i++) log.call(rec(`t${i}`));
    await log.flush();
    expect(existsSync(join(h.stateDir, CALL_LOG_ROTATED_FILE))).toBe(false);
    max = 1000; // a smaller bound applies at the next write
    log.call(rec('after'));
    await log.flush();
    const main = readFileSync(join(h.stateDir, 'calls.jsonl'), 'utf8');
    expect(main.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(h.stateDir, CALL_LOG_ROTATED_FILE))).toBe(true);
    const recent = recentCalls(h.stateDir, { limit: 3 });
    expect(recent.map((r) => r.tool)).toEqual(['after', 't49', 't48']);
    // Rotating again replaces the older file: each file stays within the bound, both within twice it.
    for (let i = 0; i < 50; i++) {
      log.call(rec(`u${i}`));
      expect(statSync(join(h.stateDir, 'calls.jsonl')).size).toBeLessThanOrEqual(1000);
    }
    // The file moved before the bound was lowered is replaced at the next rotation.
    expect(statSync(join(h.stateDir, CALL_LOG_ROTATED_FILE)).size).toBeLessThanOrEqual(1000);
    expect(recentCalls(h.stateDir, { limit: 1000 }).map((r) => r.tool)).not.toContain('t0');
    expect(recentCalls(h.stateDir, { limit: 1 }).map((r) => r.tool)).toEqual(['u49']);
    await log.close();
  });

  it('the usage reader finishes the rotated file before reading the new one (no call is lost)', async () => {
    h = await setsHarness();
    let max = 10_000_000;
    const log = new CallLog(h.stateDir, { maxBytes: () => max });
    const call = (tool: string, session: string) =>
      log.call({
        ts: new Date(h.clock.now()).toISOString(),
        agent: 'default',
        tool,
        via: 'direct',
        ok: true,
        ms: 1,
        client: 'test',
        session,
      });
    call('a', 's1');
    await h.sets.ingest(h.clock.now()); // cursor into calls.jsonl
    call('b', 's1'); // written after the read …
    max = 300; // … then the next write moves the file aside …
    call('b', 's2'); // … and goes to the new calls.jsonl
    expect(existsSync(join(h.stateDir, CALL_LOG_ROTATED_FILE))).toBe(true);
    await log.close();
    expect(readFileSync(join(h.stateDir, 'calls.jsonl'), 'utf8')).toContain('"s2"');
    await h.sets.ingest(h.clock.now());
    // Both calls of b were read (one from the rotated file, one from the new one), in one work session.
    const sessions = Object.values(h.usage.usage('default').b ?? {});
    expect(sessions.reduce((n, u) => n + u.calls, 0)).toBe(2);
  });
});

describe('recentCalls', () => {
  it('filters by agent and reads from the end in blocks (a line longer than a block included)', async () => {
    h = await setsHarness();
    const lines = [
      JSON.stringify({ ts: '2026-01-01T00:00:00Z', event: 'search', agent: 'a', bytes: 1, results: 1, client: 'c' }),
      JSON.stringify({
        ts: '2026-01-01T00:00:01Z',
        agent: 'a',
        tool: 'big',
        via: 'direct',
        ok: false,
        ms: 2,
        client: 'c',
        session: null,
        arguments: { x: 'y'.repeat(200_000) },
      }),
      '{"torn":',
      JSON.stringify({
        ts: '2026-01-01T00:00:02Z',
        agent: 'b',
        tool: 'other',
        via: 'call_tool',
        ok: true,
        ms: 3,
        client: 'c',
        session: null,
      }),
    ];
    writeFileSync(join(h.stateDir, 'calls.jsonl'), lines.join('\n'));
    expect(recentCalls(h.stateDir).map((r) => [r.agent, r.tool, r.ok])).toEqual([
      ['b', 'other', true],
      ['a', 'big', false],
    ]);
    expect(recentCalls(h.stateDir, { agent: 'a' }).map((r) => r.tool)).toEqual(['big']);
  });
});

describe("an upstream's log", () => {
  it('keeps whole stderr lines without colour codes, and at most UPSTREAM_LOG_LINES entries', () => {
    let t = 0;
    const j = new UpstreamJournal(() => t++);
    j.stderr('\x1b[31mError:\x1b[0m token missing\nsecond ');
    j.stderr('half\n\n');
    j.event('down', new Error('the connection closed'));
    expect(j.entries().map((e) => `${e.kind}:${e.text}`)).toEqual([
      'stderr:Error: token missing',
      'stderr:second half',
      'event:down: the connection closed',
    ]);
    for (let i = 0; i < 500; i++) j.event(`e${i}`);
    expect(j.entries()).toHaveLength(UPSTREAM_LOG_LINES);
    expect(j.entries(2).map((e) => e.text)).toEqual(['e498', 'e499']);
  });
});
