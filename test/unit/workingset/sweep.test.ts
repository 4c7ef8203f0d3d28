// The sweep rule as a pure function (docs/rules/sweep.md), time injected.
import { describe, expect, it } from 'vitest';
import { decideSweep } from '../../../src-main/core/workingset/sweep.js';
import { emptyAgentState, type AgentState, type ToolState } from '../../../src-main/core/workingset/types.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');
const vendors = new Set(['v']);
const settings = (cap = 20, idleWindowDays = 21) => ({ cap, idleWindowDays, vendors });
const t = (promotedDaysAgo: number, lastUsedDaysAgo: number | null, extra: Partial<ToolState> = {}): ToolState => ({
  vendor: 'v',
  promotedBy: 'agent',
  promotedAt: NOW - promotedDaysAgo * DAY,
  lastUsedAt: lastUsedDaysAgo === null ? null : NOW - lastUsedDaysAgo * DAY,
  ...extra,
});
const state = (tools: Record<string, ToolState>): AgentState => ({ ...emptyAgentState(), tools });
const sweep = (s: AgentState, cfg = settings(), busy = false) => decideSweep('a', s, cfg, NOW, { busy }).map((d) => `${d.tool}:${d.cause}`);

describe('the idle rule', () => {
  it('counts from the promotion when the tool was never called', () => {
    expect(sweep(state({ fresh: t(20, null), stale: t(22, null) }))).toEqual(['stale:idle']);
  });

  it('counts from the last successful use', () => {
    expect(sweep(state({ used: t(100, 3), forgotten: t(100, 30) }))).toEqual(['forgotten:idle']);
  });

  it('gives a re-promoted tool a fresh start even if its last use is old', () => {
    expect(sweep(state({ back: t(1, 60) }))).toEqual([]);
  });

  it('reads the window of the agent', () => {
    expect(sweep(state({ x: t(8, null) }), settings(20, 7))).toEqual(['x:idle']);
  });
});

describe('the cap', () => {
  it('demotes only tools promoted inside the window and never called since, oldest promotion first', () => {
    const s = state({
      old: t(10, null), // candidate, oldest
      mid: t(5, null), // candidate
      recent: t(1, null), // candidate, newest
      used: t(9, 2), // called since promotion: never a candidate
      earlyUsed: t(15, 15), // called at promotion time inside the window: not a candidate
    });
    expect(sweep(s, settings(3))).toEqual(['old:cap', 'mid:cap']);
  });

  it('breaks a tie of promotion times by code unit, the same on every machine whatever its locale', () => {
    // localeCompare put a, ä, b before B here (and differently under another locale).
    const s = state({ b: t(1, null), a: t(1, null), ä: t(1, null), B: t(1, null), keep: t(0, null) });
    expect(sweep(s, settings(1))).toEqual(['B:cap', 'a:cap', 'b:cap', 'ä:cap']);
  });

  it('never demotes a tool used inside the window, so a busy set may sit above the cap', () => {
    const s = state({ a: t(10, 1), b: t(9, 2), c: t(8, 3), d: t(7, 0) });
    expect(sweep(s, settings(2))).toEqual([]);
  });

  it('runs after the idle rule, on what remains', () => {
    const s = state({ idle: t(30, null), a: t(3, null), b: t(2, null) });
    expect(sweep(s, settings(1))).toEqual(['idle:idle', 'a:cap']);
  });

  it('does not count a usage-promoted tool as unused: its calls came just before promotion', () => {
    const s = state({ u: t(0, 0.5, { promotedBy: 'usage' }), n: t(1, null) });
    expect(sweep(s, settings(1))).toEqual(['n:cap']);
  });
});

describe('the guards', () => {
  it('skips an agent with a call in flight', () => {
    expect(sweep(state({ stale: t(40, null) }), settings(), true)).toEqual([]);
  });

  it('never demotes a pin, and counts it against the cap without taking it', () => {
    const s = state({ pin: t(400, null, { pinned: 'config', promotedBy: 'pin' }), x: t(1, null) });
    expect(sweep(s, settings(1))).toEqual(['x:cap']);
  });

  it('takes every tool of a vendor that is no longer configured, cause revoked', () => {
    expect(
      sweep(state({ gone: t(1, 0, { vendor: 'old' }), pinnedGone: t(1, 0, { vendor: 'old', pinned: 'config' }), here: t(1, 0) })),
    ).toEqual(['gone:revoked', 'pinnedGone:revoked']);
  });
});
