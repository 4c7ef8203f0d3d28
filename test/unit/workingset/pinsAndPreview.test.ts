// A pin is visible at once, and the sweep's dry run is the sweep's own rule.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY, T0, setsHarness, type SetsHarness } from '../../helpers/sets.js';
import { startAppFromFile, type FileApp } from '../../helpers/app.js';

let h: SetsHarness | undefined;
let a: FileApp | undefined;
afterEach(async () => {
  await h?.close();
  await a?.stop();
  h = a = undefined;
});

/** A state folder whose agent already has `tools` as ordinary (unpinned) members promoted `daysAgo` days before T0. */
function stateWith(tools: Record<string, number>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mws-pin-'));
  mkdirSync(join(dir, 'agents'));
  const entries = Object.entries(tools).map(([t, daysAgo]) => [
    t,
    { vendor: 'v', promotedBy: 'user', promotedAt: T0 - daysAgo * DAY, lastUsedAt: null },
  ]);
  writeFileSync(join(dir, 'agents', 'default.json'), JSON.stringify({ tools: Object.fromEntries(entries), demotedAt: {}, approvals: {} }));
  return dir;
}

describe('mws sweep --dry-run', () => {
  it('never predicts demoting a tool pinned in the config that the sweep has not recorded yet', async () => {
    // "a" was promoted long ago and then pinned in the config; no cycle has run since.
    h = await setsHarness({ pins: ['a'] }, undefined, stateWith({ a: 30, b: 30 }));
    const preview = await h.sets.sweepPreview(h.clock.now());
    expect(preview.map((d) => `${d.tool}:${d.cause}`)).toEqual(['b:idle']);
    const real = await h.sets.cycle(h.clock.now());
    expect(real.decisions.filter((d) => d.action === 'demote').map((d) => `${d.tool}:${d.cause}`)).toEqual(['b:idle']);
    expect(h.listed()).toEqual(['a']);
  });

  it('predicts exactly the demotions a real sweep at that time makes, and changes nothing itself', async () => {
    h = await setsHarness({ agents: [{ id: 'default', cap: 2 }] }, undefined, stateWith({ a: 10, b: 5, c: 1, d: 25 }));
    const later = h.clock.now() + 12 * DAY;
    const preview = await h.sets.sweepPreview(later);
    expect(h.listed().sort()).toEqual(['a', 'b', 'c', 'd']);
    h.clock.set(later);
    const real = (await h.sets.cycle(later)).decisions.filter((d) => d.action === 'demote');
    expect(preview).toEqual(real);
    expect(real.length).toBeGreaterThan(0);
  });

  it('predicts nothing while automatic demotion is paused, as the sweep then demotes nothing', async () => {
    h = await setsHarness({}, undefined, stateWith({ a: 30 }));
    h.sets.demotionPaused = true;
    expect(await h.sets.sweepPreview(h.clock.now())).toEqual([]);
  });
});

describe('a pin', () => {
  it("shows at once in the window's list and the report, not at the next sweep", async () => {
    a = await startAppFromFile({ upstreams: { demo: { builtin: 'demo' } } });
    await a.app.router.ready();
    await a.app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
    await a.app.control.pin({ agent: 'default', tool: 'demo__drive_search_files', pinned: true });
    const row = (await a.app.control.workingSet({ agent: 'default' })).find((r) => r.tool === 'demo__drive_search_files');
    expect(row?.pinned).toBe('config');
    const report = await a.app.control.report({ agent: 'default' });
    expect(JSON.stringify(report)).toMatch(/"tool":"demo__drive_search_files"[^}]*"pinned":"config"/);
    // And unpinning shows at once too.
    await a.app.control.pin({ agent: 'default', tool: 'demo__drive_search_files', pinned: false });
    expect((await a.app.control.workingSet({ agent: 'default' })).find((r) => r.tool === 'demo__drive_search_files')?.pinned).toBe(null);
  });
});
