// Cache-friendly list changes: the scheduled sweep and usage promotions change an agent's list only
// once the agent has been quiet for listChanges.quietMinutes; its own (and the user's) promote and
// demote stay immediate, and revocations go at once. Time comes from the hand-moved clock.
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, setsHarness, type SetsHarness } from '../../helpers/sets.js';
import { holdWhileActive, isQuiet } from '../../../src-main/core/workingset/quiet.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import type { Decision } from '../../../src-main/core/workingset/types.js';

let h: SetsHarness;
afterEach(async () => h?.close());
const MIN = 60_000;
const scheduled = async () => {
  const r = await h.sets.cycle(h.clock.now(), { whenQuiet: true });
  return {
    done: r.decisions.map((d) => `${d.tool}:${d.action}:${d.cause}`),
    held: (r.held ?? []).map((d) => `${d.tool}:${d.action}:${d.cause}`),
  };
};

describe('isQuiet and holdWhileActive, the pure rule', () => {
  it('is quiet when nothing is in flight and the last request is at least quietMs old (never seen: quiet)', () => {
    expect(isQuiet(undefined, false, 1000, 10 * MIN)).toBe(true);
    expect(isQuiet(0, false, 10 * MIN, 10 * MIN)).toBe(true);
    expect(isQuiet(1, false, 10 * MIN, 10 * MIN)).toBe(false);
    expect(isQuiet(undefined, true, 1000, 10 * MIN)).toBe(false);
    expect(isQuiet(5, false, 5, 0)).toBe(true);
  });

  it('holds promotions and idle/cap demotions, and lets revocations through', () => {
    const d = (tool: string, action: Decision['action'], cause: Decision['cause']): Decision => ({ agent: 'a', tool, action, cause });
    const r = holdWhileActive(
      [d('p', 'promote', 'usage')],
      [d('i', 'demote', 'idle'), d('c', 'demote', 'cap'), d('r', 'demote', 'revoked')],
      false,
    );
    expect(r.promotions).toEqual([]);
    expect(r.demotions.map((x) => x.tool)).toEqual(['r']);
    expect(r.held.map((x) => x.tool)).toEqual(['p', 'i', 'c']);
    expect(holdWhileActive([d('p', 'promote', 'usage')], [], true).held).toEqual([]);
  });

  it('is 10 minutes by default and configurable (0: at once), refused outside 0..1440', () => {
    expect(validateConfig({}, '/s').listChanges).toEqual({ quietMinutes: 10 });
    expect(validateConfig({ listChanges: { quietMinutes: 0 } }, '/s').listChanges.quietMinutes).toBe(0);
    expect(() => validateConfig({ listChanges: { quietMinutes: -1 } }, '/s')).toThrow(/listChanges\.quietMinutes/);
    expect(() => validateConfig({ listChanges: { quiet: 1 } }, '/s')).toThrow(/quietMinutes/);
  });
});

describe('the scheduled cycle', () => {
  it("leaves an active agent's list alone and applies what it held once the agent is quiet", async () => {
    h = await setsHarness();
    await h.sets.promote('default', 'a', 'v', 'agent');
    h.clock.advance(30 * DAY); // a is idle
    await h.call('b', { session: 's1' });
    h.clock.advance(60 * MIN);
    await h.call('b', { session: 's2' }); // b earns a usage promotion (two work sessions)
    h.lastSeen.set('default', h.clock.now() - 9 * MIN); // the agent sent a request 9 min ago
    expect(await scheduled()).toEqual({ done: [], held: ['b:promote:usage', 'a:demote:idle'] });
    expect(h.listed()).toEqual(['a']);
    expect(h.changed).toEqual([['default']]); // only the agent's own promote
    h.clock.advance(1 * MIN);
    expect(await scheduled()).toEqual({ done: ['b:promote:usage', 'a:demote:idle'], held: [] });
    expect(h.listed()).toEqual(['b']);
  });

  it("keeps the agent's own promote and demote immediate, and a cycle the user asks for too", async () => {
    h = await setsHarness();
    h.lastSeen.set('default', h.clock.now());
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.sets.promote('default', 'c', 'v', 'user');
    expect(h.listed()).toEqual(['a', 'c']);
    await h.sets.demote('default', 'a', 'agent');
    expect(h.listed()).toEqual(['c']);
    h.clock.advance(30 * DAY);
    h.lastSeen.set('default', h.clock.now());
    expect((await scheduled()).held).toEqual(['c:demote:idle']);
    // `mws sweep` (the control's cycle) is the user's own request: it applies now.
    expect((await h.sets.cycle(h.clock.now())).decisions.map((d) => d.tool)).toEqual(['c']);
  });

  it("decides for other agents as usual: one agent's activity holds only its own list", async () => {
    h = await setsHarness({ agents: [{ id: 'default' }, { id: 'bot' }] });
    await h.sets.promote('default', 'a', 'v', 'agent');
    await h.sets.promote('bot', 'a', 'v', 'agent');
    h.clock.advance(30 * DAY);
    h.lastSeen.set('bot', h.clock.now() - MIN);
    const r = await h.sets.cycle(h.clock.now(), { whenQuiet: true });
    expect(r.decisions.map((d) => `${d.agent}:${d.tool}`)).toEqual(['default:a']);
    expect(r.held?.map((d) => `${d.agent}:${d.tool}`)).toEqual(['bot:a']);
  });

  it('still takes out the tools of a removed upstream while the agent is active', async () => {
    h = await setsHarness({ upstreams: { v: { url: 'http://127.0.0.1:1/mcp' }, w: { url: 'http://127.0.0.1:2/mcp' } } });
    await h.sets.promote('default', 'x', 'w', 'agent');
    await h.close();
    const dir = h.stateDir;
    h = await setsHarness({}, undefined, dir);
    h.lastSeen.set('default', h.clock.now());
    expect(await scheduled()).toEqual({ done: ['x:demote:revoked'], held: [] });
  });

  it('with quietMinutes 0 changes lists at once, as before', async () => {
    h = await setsHarness({ listChanges: { quietMinutes: 0 } });
    await h.sets.promote('default', 'a', 'v', 'agent');
    h.clock.advance(30 * DAY);
    h.lastSeen.set('default', h.clock.now());
    expect(await scheduled()).toEqual({ done: ['a:demote:idle'], held: [] });
  });
});

describe('through the app', () => {
  it("notes each list and call as the agent's activity, and the scheduled cycle waits for quiet", async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createApp } = await import('../../../src-main/core/app.js');
    const { ManualClock } = await import('../../../src-main/core/clock.js');
    const { MemoryLogger } = await import('../../../src-main/core/log.js');
    const { TwinUpstream, twinTool } = await import('../../helpers/twins.js');
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-quiet-'));
    const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
    const clock = new ManualClock();
    const app = createApp({ config, clock, log: new MemoryLogger(), connect: () => new TwinUpstream('v', [twinTool('a'), twinTool('b')]) });
    await app.start({ listen: false, schedule: false });
    try {
      const ctx = { via: 'direct' as const, client: 'test', session: undefined };
      await app.router.callTool('default', 'promote', { name: 'v__a' }, ctx);
      await app.router.callTool('default', 'promote', { name: 'v__b' }, ctx);
      const names = () => app.router.listTools('default').map((t) => t.name);
      expect(names()).toEqual(['search_tools', 'call_tool', 'promote', 'demote', 'v__a', 'v__b']);
      clock.advance(30 * DAY);
      expect(names()).toHaveLength(6); // a list is activity too
      clock.advance(5 * MIN);
      await app.router.callTool('default', 'v__b', {}, ctx); // b used; a idle
      clock.advance(5 * MIN);
      const r = await app.sets.cycle(clock.now(), { whenQuiet: true });
      expect(r.held?.map((d) => d.tool)).toEqual(['v__a']);
      expect(names()).toEqual(['search_tools', 'call_tool', 'promote', 'demote', 'v__a', 'v__b']);
      clock.advance(10 * MIN);
      expect((await app.sets.cycle(clock.now(), { whenQuiet: true })).decisions.map((d) => d.tool)).toEqual(['v__a']);
    } finally {
      await app.stop();
    }
  });
});
