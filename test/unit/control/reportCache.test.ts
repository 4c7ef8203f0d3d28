// Reports come from caches: history counts re-read only after a change, token counts kept in the state
// folder so a restarted core tokenizes nothing it has counted before, and the toolbox counted ahead
// of the first report once it settles.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countHistory, tokenizerStats } from '../../../src-main/core/control/report/report.js';
import { COUNT_AHEAD_QUIET_MS, ToolboxCosts } from '../../../src-main/core/control/report/toolboxCosts.js';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { startApp, tempDir, TEST_LIST_MS, type TestApp } from '../../helpers/app.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { until } from '../../helpers/wait.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const demo = { upstreams: { demo: { builtin: 'demo' } } };

/** The demo app on a hand-moved clock (started by the test), stopped after it. */
function manualApp() {
  const stateDir = tempDir();
  const clock = new ManualClock(Date.now());
  const config = validateConfig(
    { stateDir, listen: { host: '127.0.0.1', port: 0 }, ...demo, timeouts: { listMs: TEST_LIST_MS } },
    stateDir,
  );
  const app = createApp({ config, clock, log: new MemoryLogger() });
  t = { app, url: '', stateDir, log: new MemoryLogger(), stop: () => app.stop() };
  return { app, clock, stateDir };
}

describe('the report', () => {
  it('shows a promotion or demotion made since the last report (the history cache follows changes)', async () => {
    t = await startApp(demo);
    await t.app.router.ready();
    const before = (await t.app.control.report({ agent: 'default' }))[0]!;
    expect(before.history).toEqual(countHistory(await t.app.control.history({ agent: 'default' })));
    await t.app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
    const promoted = (await t.app.control.report({ agent: 'default' }))[0]!;
    expect(promoted.history.user?.promote).toBe((before.history.user?.promote ?? 0) + 1);
    await t.app.control.demote({ agent: 'default', tool: 'demo__drive_search_files' });
    const demoted = (await t.app.control.report({ agent: 'default' }))[0]!;
    expect(demoted.history.user).toEqual({
      promote: (before.history.user?.promote ?? 0) + 1,
      demote: (before.history.user?.demote ?? 0) + 1,
    });
    expect(demoted.history).toEqual(countHistory(await t.app.control.history({ agent: 'default' })));
  });

  it("is not a request of the agents': a window open on the report does not hold the scheduled cycle's changes", async () => {
    const { app, clock } = manualApp();
    await app.start({ schedule: false });
    await app.router.ready();
    await app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
    clock.advance(40 * 24 * 3_600_000); // idle past the window: the sweep demotes it once the agent is quiet
    const [r] = await app.control.report({ agent: 'default' });
    expect(r!.listedTools).toBe(app.router.listedFor('default').length);
    const cycle = await app.sets.cycle(clock.now(), { whenQuiet: true });
    expect(cycle.decisions.map((d) => `${d.tool}:${d.cause}`)).toContain('demo__drive_search_files:idle');
    expect(cycle.held ?? []).toEqual([]);
  });

  it('reads ahead what the first report needs once a set changed, so the first report reads no history itself', async () => {
    t = await startApp({ ...demo, agents: [{ id: 'default' }, { id: 'other' }] });
    await t.app.router.ready();
    const sets = t.app.sets;
    const read = sets.history.bind(sets);
    let promoted = false;
    const readAfter: string[] = [];
    const history = vi.spyOn(sets, 'history').mockImplementation((agent) => {
      if (promoted) readAfter.push(agent);
      return read(agent);
    });
    // From the change on (the report's cache hears it first), a read is of the new history.
    t.app.events.on((e) => void (e.type === 'setChanged' && e.agent === 'other' && (promoted = true)));
    await t.app.control.promote({ agent: 'other', tool: 'demo__drive_search_files' });
    // The promotion changed the other agent's history: it is read again ahead of any report.
    await until(() => readAfter.includes('other'), 'the changed agent read ahead after the change');
    history.mockClear();
    const reports = await t.app.control.report({});
    expect(history).not.toHaveBeenCalled();
    expect(reports.find((r) => r.agent === 'other')!.history.user?.promote).toBe(1);
    history.mockRestore();
  });

  it('after a restart, tokenizes nothing it counted before: the counts are in the state folder', async () => {
    const stateDir = tempDir();
    t = await startApp(demo, stateDir);
    await t.app.router.ready();
    const first = await t.app.control.report({});
    await t.stop();
    expect(existsSync(join(stateDir, 'token-counts.json'))).toBe(true);
    const tokenizedBefore = tokenizerStats().tokenized;
    // A new core on the same folder: new tool objects, the same definitions.
    t = await startApp(demo, stateDir);
    await t.app.router.ready();
    const again = await t.app.control.report({});
    expect(tokenizerStats().tokenized).toBe(tokenizedBefore);
    expect(again.map((r) => [r.listedTokens, r.toolboxTokens])).toEqual(first.map((r) => [r.listedTokens, r.toolboxTokens]));
  });
});

describe('counting ahead of the first report', () => {
  it('counts the toolbox once it has stayed the same for a quiet spell, so the first report tokenizes nothing', async () => {
    const { app, clock, stateDir } = manualApp();
    await app.start();
    await app.router.ready();
    const file = join(stateDir, 'token-counts.json');
    // Nothing is counted while the toolbox may still be changing.
    clock.advance(COUNT_AHEAD_QUIET_MS);
    expect(existsSync(file)).toBe(false);
    clock.advance(COUNT_AHEAD_QUIET_MS);
    await until(() => existsSync(file), 'the toolbox counted ahead and its counts saved');
    const before = tokenizerStats().tokenized;
    const reports = await app.control.report({});
    expect(tokenizerStats().tokenized).toBe(before);
    expect(reports[0]!.toolboxTokens).toBeGreaterThan(0);
  });

  it('says when a count ahead that tokenized something is over, so the app can give back what it allocated', async () => {
    const clock = new ManualClock(Date.now());
    const tb = new Toolbox(
      new Map([['v', [{ name: 'one', description: 'One tool.\n\nWhat it does at length.', inputSchema: { type: 'object' as const } }]]]),
      false,
    );
    let counted = 0;
    let compact = false;
    const stateDir = tempDir();
    const costs = new ToolboxCosts({
      stateDir,
      toolbox: () => tb,
      compact: () => compact,
      metaTools: () => [],
      clock,
      counted: () => counted++,
    });
    costs.changed();
    clock.advance(COUNT_AHEAD_QUIET_MS);
    expect(counted).toBe(0);
    clock.advance(COUNT_AHEAD_QUIET_MS);
    await until(() => counted === 1, 'the count ahead told as over');
    // A report's own count (here of the compact descriptions, not counted yet) is not one.
    compact = true;
    const before = tokenizerStats().tokenized;
    await costs.whole();
    expect(tokenizerStats().tokenized).toBeGreaterThan(before);
    expect(counted).toBe(1);
    costs.stop();
    await until(() => existsSync(join(stateDir, 'token-counts.json')), 'the counts saved');
    // After a restart every definition is in the counts file: a count ahead tokenizes nothing, and says
    // nothing (it decides when its count resolves, before a later await of the same count goes on).
    const again = new ToolboxCosts({
      stateDir,
      toolbox: () => tb,
      compact: () => false,
      metaTools: () => [],
      clock,
      counted: () => counted++,
    });
    again.changed();
    clock.advance(COUNT_AHEAD_QUIET_MS);
    clock.advance(COUNT_AHEAD_QUIET_MS);
    const stillBefore = tokenizerStats().tokenized;
    await again.whole();
    expect(tokenizerStats().tokenized).toBe(stillBefore);
    expect(counted).toBe(1);
    again.stop();
  });
});
