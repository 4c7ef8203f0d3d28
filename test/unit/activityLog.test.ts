// The activity log on disk: bounded by rotation (calls.jsonl → calls.1.jsonl), read newest first
// across both files, and the usage reader loses no call written just before a rotation.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setsHarness, type SetsHarness } from '../helpers/sets.js';
import { CALL_LOG_ROTATED_FILE, recentCalls, rotateCallLog } from '../../src-main/core/usage/activity.js';
import { CallLog } from '../../src-main/core/usage/callLog.js';
import { UpstreamJournal, UPSTREAM_LOG_LINES } from '../../src-main/core/upstream/journal.js';

let h: SetsHarness;
afterEach(async () => h?.close());

describe('rotation', () => {
  it('moves calls.jsonl aside past its size; new records go to a new file; reads span both, newest first', async () => {
    h = await setsHarness();
    const log = new CallLog(h.stateDir);
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
    expect(rotateCallLog(h.stateDir, log, 10_000_000)).toBe(false);
    expect(rotateCallLog(h.stateDir, log, 1000)).toBe(true);
    log.call(rec('after'));
    await log.flush();
    const main = readFileSync(join(h.stateDir, 'calls.jsonl'), 'utf8');
    expect(main.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(h.stateDir, CALL_LOG_ROTATED_FILE))).toBe(true);
    const recent = recentCalls(h.stateDir, { limit: 3 });
    expect(recent.map((r) => r.tool)).toEqual(['after', 't49', 't48']);
    // Rotating again replaces the older file: the log stays under about twice the bound.
    for (let i = 0; i < 50; i++) log.call(rec(`u${i}`));
    await log.flush();
    rotateCallLog(h.stateDir, log, 1000);
    expect(recentCalls(h.stateDir, { limit: 1000 }).map((r) => r.tool)).not.toContain('t0');
    expect(statSync(join(h.stateDir, CALL_LOG_ROTATED_FILE)).size).toBeLessThan(20_000);
    await log.close();
  });

  it('the usage reader finishes the rotated file before reading the new one (no call is lost)', async () => {
    h = await setsHarness();
    await h.call('a', { session: 's1' });
    await h.sets.ingest(h.clock.now()); // cursor into calls.jsonl
    await h.call('b', { session: 's1' }); // written after the read …
    expect(rotateCallLog(h.stateDir, h.callLog, 1)).toBe(true); // … then the file is moved aside
    await h.call('b', { session: 's2' }); // into the new calls.jsonl
    expect(readFileSync(join(h.stateDir, 'calls.jsonl'), 'utf8')).toContain('"s2"');
    await h.sets.ingest(h.clock.now());
    // Both calls of b were read, the rotated file's and the new one's (one work session holds them).
    expect(Object.values(h.usage.usage('default').b ?? {}).reduce((n, u) => n + u.calls, 0)).toBe(2);
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
