// Every search marks its hits listed or not from the agent's listing: the one computed last, not a
// listing decided again per search, and a change to the set is in it at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("an agent's listed entries", () => {
  it('are decided once per change to the set, and follow a promotion and a demotion', async () => {
    t = await startApp({ upstreams: { demo: { builtin: 'demo' } } });
    await t.app.router.ready();
    // The agent lists (its client's tools/list): from then on its listing is kept.
    t.app.router.listTools('default');
    const decide = vi.spyOn(t.app.sets, 'listing');
    const names = () => t!.app.router.workingSetEntries('default').map((e) => e.name);
    const before = names();
    for (let i = 0; i < 20; i++) names();
    expect(decide).not.toHaveBeenCalled();
    await t.app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
    expect(names()).toEqual([...before, 'demo__drive_search_files']);
    await t.app.control.demote({ agent: 'default', tool: 'demo__drive_search_files' });
    expect(names()).toEqual(before);
    decide.mockRestore();
  });

  it('are not kept for an agent that has not listed: a listing read during a save would be the one its change is compared with', async () => {
    t = await startApp({ upstreams: { demo: { builtin: 'demo' } }, agents: [{ id: 'default' }, { id: 'quiet' }] });
    await t.app.router.ready();
    // A search and a report read its entries before any client of it listed: nothing is kept, so its
    // next change is told whatever it holds (an agent with no kept listing is "unknown" and told).
    t.app.router.workingSetEntries('quiet');
    await t.app.control.report({ agent: 'quiet' });
    t.app.router.listedFor('quiet');
    expect(t.app.router.recompute(['quiet']).unknown).toEqual(['quiet']);
  });

  it('are read for a report once per change to the set of an agent that has not listed, and follow a promotion', async () => {
    t = await startApp({ upstreams: { demo: { builtin: 'demo' } }, agents: [{ id: 'default' }, { id: 'quiet' }] });
    await t.app.router.ready();
    // What a listing read costs: each tool met with the toolbox's listed copy.
    const listed = vi.spyOn(Toolbox.prototype, 'listed');
    const first = (await t.app.control.report({ agent: 'quiet' }))[0]!.listedTools;
    const once = listed.mock.calls.length;
    expect(once).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) await t.app.control.report({ agent: 'quiet' });
    expect(listed.mock.calls.length).toBe(once);
    // The sets answer the same entries until the agent's names change.
    const entries = t.app.sets.listing('quiet');
    expect(t.app.sets.listing('quiet')).toBe(entries);
    await t.app.control.promote({ agent: 'quiet', tool: 'demo__drive_search_files' });
    expect(t.app.sets.listing('quiet')).not.toBe(entries);
    expect((await t.app.control.report({ agent: 'quiet' }))[0]!.listedTools).toBe(first + 1);
    // A change to another agent's set leaves this one's as read.
    const after = listed.mock.calls.length;
    await t.app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
    await t.app.control.report({ agent: 'quiet' });
    expect(listed.mock.calls.length).toBe(after);
    listed.mockRestore();
  });
});
