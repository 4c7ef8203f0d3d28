// Each agent's report is kept between reports and answered again while nothing it shows changed: the
// same frozen object, whose JSON the listener makes once. These tests change, one at a time, every
// input a report shows and check that the next report shows it.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../../src-main/core/app.js';
import { DAY_MS, ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { envelopeJson } from '../../../src-main/core/control/transport/envelopeJson.js';
import type { AgentReport } from '../../../src-main/core/control/api.js';
import { REPORTS_KEPT_MS } from '../../../src-main/core/control/report/keptReports.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const ctx = { via: 'direct' as const, client: 'test', session: undefined };

async function twoAgents() {
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-report-kept-'));
  const raw = { stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } }, agents: [{ id: 'default' }, { id: 'other' }] };
  const path = join(stateDir, 'config.json');
  writeFileSync(path, JSON.stringify(raw));
  const clock = new ManualClock(Date.UTC(2026, 11, 8, 12));
  const twin = new TwinUpstream('v', [twinTool('a'), twinTool('b'), twinTool('c', false)]);
  app = createApp({
    config: validateConfig(raw, stateDir),
    clock,
    log: new MemoryLogger(),
    configFile: { path, raw },
    connect: () => twin,
  });
  await app.start({ listen: false, schedule: false });
  await app.router.callTool('default', 'promote', { name: 'v__a' }, ctx);
  await app.router.callTool('other', 'promote', { name: 'v__b' }, ctx);
  const a = app;
  const report = async () => Object.fromEntries((await a.control.report({})).map((r) => [r.agent, r])) as Record<string, AgentReport>;
  return { app: a, clock, twin, report };
}

describe("an agent's report, kept between reports", () => {
  it('is answered again, the same frozen object, while nothing it shows changed', async () => {
    const { report } = await twoAgents();
    const first = await report();
    const again = await report();
    expect(again.default).toBe(first.default);
    expect(again.other).toBe(first.other);
    expect(Object.isFrozen(first.default!.listed[0])).toBe(true);
    // No caller can change what the next one is given.
    expect(() => (first.default!.listed as unknown as unknown[]).push({})).toThrow(TypeError);
    // One agent's own report is the same kept object.
    expect((await app!.control.report({ agent: 'other' }))[0]).toBe(first.other);
  });

  it("is built again after the agent's calls, and only that agent's", async () => {
    const { report, clock } = await twoAgents();
    const first = await report();
    clock.advance(60_000);
    await app!.router.callTool('default', 'v__a', {}, ctx);
    const after = await report();
    expect(after.default).not.toBe(first.default);
    expect(after.default!.calls).toEqual([{ tool: 'v__a', ok: 1, failed: 0 }]);
    expect(after.default!.listed.find((m) => m.tool === 'v__a')!.lastUsedAt).toBe(new Date(clock.now()).toISOString());
    expect(after.default!.daily.at(-1)!.calls).toBe(1);
    expect(after.other).toBe(first.other);
  });

  it('is built again after a use the call log has not told yet (the idle clock restarted by the call itself)', async () => {
    const { report, clock } = await twoAgents();
    const first = await report();
    clock.advance(60_000);
    app!.sets.markUsed('other', 'v__b', clock.now());
    const after = await report();
    expect(after.other!.listed.find((m) => m.tool === 'v__b')!.lastUsedAt).toBe(new Date(clock.now()).toISOString());
    expect(after.default).toBe(first.default);
  });

  it('is built again after a search, a promotion and a demotion', async () => {
    const { report } = await twoAgents();
    const first = await report();
    await app!.router.callTool('default', 'search_tools', { query: 'c tool' }, ctx);
    const searched = await report();
    expect(searched.default!.searches).toBe(first.default!.searches + 1);
    await app!.control.promote({ agent: 'default', tool: 'v__c' });
    const promoted = await report();
    expect(promoted.default!.listed.map((m) => m.tool)).toContain('v__c');
    expect(promoted.default!.listedTools).toBe(first.default!.listedTools + 1);
    expect(promoted.default!.history.user?.promote).toBe((first.default!.history.user?.promote ?? 0) + 1);
    await app!.control.demote({ agent: 'default', tool: 'v__c' });
    const demoted = await report();
    expect(demoted.default!.listed.map((m) => m.tool)).not.toContain('v__c');
    expect(demoted.other).toBe(first.other);
  });

  it("is built again after the agent's settings or the toolbox changed", async () => {
    const { report, twin } = await twoAgents();
    const first = await report();
    await app!.control.updateAgent({ id: 'other', cap: 7 });
    const capped = await report();
    expect(capped.other!.cap).toBe(7);
    // v__b leaves the upstream: still a member, no longer available; the toolbox's cost changes for everyone.
    twin.tools = [twinTool('a'), twinTool('c', false)];
    await app!.catalog.relist('v');
    const relisted = await report();
    expect(relisted.other!.listed.find((m) => m.tool === 'v__b')!.available).toBe(false);
    expect(relisted.default!.toolboxTools).toBe(first.default!.toolboxTools - 1);
    expect(relisted.default).not.toBe(capped.default);
  });

  it('counts history written for a tool no upstream lists now (a change the listing does not show)', async () => {
    const { report, twin } = await twoAgents();
    twin.tools = [twinTool('b'), twinTool('c', false)];
    await app!.catalog.relist('v');
    const before = await report();
    await app!.control.demote({ agent: 'default', tool: 'v__a' });
    const after = await report();
    expect(after.default!.listed.map((m) => m.tool)).not.toContain('v__a');
    expect(after.default!.history.user?.demote).toBe((before.default!.history.user?.demote ?? 0) + 1);
  });

  it('is let go when no report was asked for a while, and built again on the next', async () => {
    const { report, clock } = await twoAgents();
    const first = await report();
    clock.advance(REPORTS_KEPT_MS - 1);
    const kept = await report();
    expect(kept.default).toBe(first.default);
    clock.advance(REPORTS_KEPT_MS - 1); // each report keeps them longer
    expect((await report()).default).toBe(first.default);
    clock.advance(REPORTS_KEPT_MS);
    const rebuilt = await report();
    expect(rebuilt.default).not.toBe(first.default);
    expect(rebuilt.default).toEqual({ ...first.default, daily: rebuilt.default!.daily });
  });

  it('counts its days again when the day changes', async () => {
    const { report, clock } = await twoAgents();
    await app!.router.callTool('default', 'v__a', {}, ctx);
    const today = await report();
    expect(today.default!.daily.at(-1)!.calls).toBe(1);
    clock.advance(DAY_MS);
    const tomorrow = await report();
    expect(tomorrow.default!.daily.at(-1)).toEqual({ day: new Date(clock.now()).toISOString().slice(0, 10), calls: 0, searches: 0 });
    expect(tomorrow.default!.daily.at(-2)!.calls).toBe(1);
  });

  it("is written as JSON once: the listener's text of it is made the first time and kept", async () => {
    const { report } = await twoAgents();
    const kept = await report();
    const body = { ok: true, result: [kept.default, kept.other] };
    const text = envelopeJson(body);
    expect(text).toBe(JSON.stringify(body));
    expect(envelopeJson(body)).toBe(text);
  });
});
