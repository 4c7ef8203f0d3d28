// The app's reconfigure: a saved config is put in force whole — the parts see the new one, the config
// the app was made with is not changed in place, and what needs a restart is said, not half-applied.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { nextConfig } from '../../../src-main/core/compose/reconfigure.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';
import { applyDemo } from '../../../src-main/cli/config.js';

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const raw = (stateDir: string, extra: Record<string, unknown> = {}) => ({
  stateDir,
  upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } },
  agents: [{ id: 'default', approvals: 'ask' }],
  ...extra,
});

describe('reconfigure', () => {
  it('gives search the edited aliases (they were kept from the start)', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-reconf-'));
    const twin = new TwinUpstream('v', [twinTool('frobnicate', true)]);
    app = createApp({
      config: validateConfig(raw(stateDir), stateDir),
      clock: new ManualClock(),
      log: new MemoryLogger(),
      connect: () => twin,
      lock: false,
    });
    await app.start({ listen: false, schedule: false });
    await app.catalog.settled(10_000);
    expect(app.search.resolve('zzqx').kind).toBe('none');
    await app.reconfigure(validateConfig(raw(stateDir, { searchAliases: { zzqx: ['frobnicate'] } }), stateDir));
    const r = app.search.resolve('zzqx');
    expect(r.kind).toBe('ranked');
    expect(JSON.stringify(r)).toContain('v__frobnicate');
  });

  it("takes a removed agent's endpoint away before the config stops naming it (the gate would let a request through meanwhile)", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-reconf-'));
    const agents = [{ id: 'default' }, { id: 'bob', token: 'bob-token-0123456789abcdef' }];
    const first = validateConfig(raw(stateDir, { agents }), stateDir);
    const twin = new TwinUpstream('v', [twinTool('read', true)]);
    app = createApp({ config: first, clock: new ManualClock(), log: new MemoryLogger(), connect: () => twin, lock: false });
    await app.start({ listen: false, schedule: false });
    const bob = app.endpoints.get('bob')!;
    const seen: Array<{ served: boolean; named: boolean }> = [];
    const close = bob.close.bind(bob);
    const a = app;
    bob.close = async () => {
      // The moment the endpoint starts closing, and again while it takes its time.
      seen.push({ served: a.endpoints.has('bob'), named: a.config.agents.some((x) => x.id === 'bob') });
      await Promise.resolve();
      seen.push({ served: a.endpoints.has('bob'), named: a.config.agents.some((x) => x.id === 'bob') });
      await close();
    };
    await app.reconfigure(validateConfig(raw(stateDir, { agents: [{ id: 'default' }] }), stateDir));
    expect(seen.length).toBe(2);
    // Never served while the config no longer names it (and so no longer asks for its token).
    for (const s of seen) expect(s.served && !s.named).toBe(false);
    expect(app.endpoints.has('bob')).toBe(false);
  });

  it("drops a removed agent's kept listing (agents come and go in an app that runs for months)", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-reconf-'));
    const twin = new TwinUpstream('v', [twinTool('read', true)]);
    const agents = [{ id: 'default' }, { id: 'bob' }];
    app = createApp({
      config: validateConfig(raw(stateDir, { agents }), stateDir),
      clock: new ManualClock(),
      log: new MemoryLogger(),
      connect: () => twin,
      lock: false,
    });
    await app.start({ listen: false, schedule: false });
    await app.router.ready();
    app.router.listTools('bob');
    const kept = (app.router as unknown as { listings: Map<string, unknown> }).listings;
    expect(kept.has('bob')).toBe(true);
    await app.reconfigure(validateConfig(raw(stateDir, { agents: [{ id: 'default' }] }), stateDir));
    expect(kept.has('bob')).toBe(false);
  });

  it('puts the new config in force for every part and leaves the first config object as it was', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-reconf-'));
    const first = validateConfig(raw(stateDir), stateDir);
    const copy = structuredClone(first);
    const twin = new TwinUpstream('v', [twinTool('write', false), twinTool('read', true)]);
    app = createApp({ config: first, clock: new ManualClock(), log: new MemoryLogger(), connect: () => twin, lock: false });
    await app.start({ listen: false, schedule: false });
    const entry = app.catalog.toolbox().resolve('v__write')!;
    expect(app.gate.preview('default', entry)).toMatchObject({ kind: 'ask' });
    const settings: string[] = [];
    app.events.on((e) => settings.push(e.type));

    const next = validateConfig(
      raw(stateDir, { agents: [{ id: 'default', approvals: 'allow' }, { id: 'second' }], compactDescriptions: true }),
      stateDir,
    );
    await app.reconfigure(next);

    expect(first).toEqual(copy); // never changed in place
    expect(app.config.agents.map((a) => a.id)).toEqual(['default', 'second']);
    expect(app.config.compactDescriptions).toBe(true);
    expect(app.endpoints.has('second')).toBe(true);
    // The gate keeps its own copy: it was told.
    expect(app.gate.preview('default', entry)).toMatchObject({ kind: 'run' });
    // So does the control API (it reads the config at each call).
    expect((await app.control.settings({})).compactDescriptions).toBe(true);
    expect(settings).toContain('settingsChanged');

    await app.reconfigure(validateConfig(raw(stateDir), stateDir));
    expect(app.endpoints.has('second')).toBe(false);
    expect(app.gate.preview('default', entry)).toMatchObject({ kind: 'ask' });
    expect((await app.control.status({})).restartNeeded).toBe(false);
    expect((await app.control.settings({})).compactDescriptions).toBe(false);
  });

  it('a new port or state folder waits for a restart; the demo keeps its upstreams and folder', () => {
    const a = validateConfig(raw('/tmp/a'), '/tmp/a');
    const moved = validateConfig(raw('/tmp/b', { listen: { port: 9999 } }), '/tmp/b');
    const r = nextConfig(moved, a, { demo: false });
    expect(r.restartNeeded).toBe(true);
    expect(r.next.stateDir).toBe('/tmp/a');
    expect(r.next.listen.port).toBe(9999);
    // The demo as `mws serve --demo` makes it (cli/config.ts applyDemo): its own upstream and folder.
    const demo = applyDemo(validateConfig({ stateDir: '/tmp/mine' }, '/tmp/mine'));
    const left = validateConfig({ stateDir: '/tmp/mine', upstreams: { w: { url: 'http://127.0.0.1:1/mcp' } } }, '/tmp/mine');
    const d = nextConfig(left, demo, { demo: true });
    expect(d.restartNeeded).toBe(true);
    expect(d.next.upstreams).toEqual(demo.upstreams);
    expect(d.next.stateDir).toBe('/tmp/mine/demo');
    // A save that keeps the config's own (empty) upstreams stays in the demo.
    expect(
      nextConfig(validateConfig({ stateDir: '/tmp/mine', compactDescriptions: true }, '/tmp/mine'), demo, {
        demo: true,
        transform: applyDemo,
      }).restartNeeded,
    ).toBe(false);
    expect(nextConfig(a, a, { demo: false, transform: (c) => ({ ...c, serverName: 'x' }) }).next.serverName).toBe('x');
  });

  it('another search model waits for a restart (the model is loaded once)', () => {
    const a = validateConfig(raw('/tmp/a'), '/tmp/a');
    const bge = validateConfig(raw('/tmp/a', { search: { model: 'bge-small-en-int8' } }), '/tmp/a');
    expect(nextConfig(bge, a, { demo: false }).restartNeeded).toBe(true);
    expect(nextConfig(bge, bge, { demo: false }).restartNeeded).toBe(false);
  });
});
