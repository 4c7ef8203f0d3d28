import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../../../src-main/core/upstream/catalog.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import type { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';
import { buildToolbox } from '../../../src-main/core/toolbox/merge.js';

function setup(stateDir = mkdtempSync(join(tmpdir(), 'mws-cat-'))) {
  const config = validateConfig(
    {
      stateDir,
      upstreams: { a: { url: 'http://127.0.0.1:1/mcp' }, b: { url: 'http://127.0.0.1:2/mcp' } },
      timeouts: { catalogTtlMs: 1000 },
    },
    stateDir,
  );
  const twins = { a: new TwinUpstream('a', [twinTool('x'), twinTool('y')]), b: new TwinUpstream('b', [twinTool('z')]) };
  const clock = new ManualClock();
  const changes: Toolbox[] = [];
  const catalog = new Catalog({
    config,
    build: buildToolbox,
    log: new MemoryLogger(),
    now: () => clock.now(),
    onChange: (t) => changes.push(t),
    connect: (v) => twins[v as 'a' | 'b'],
  });
  return { catalog, twins, clock, changes, stateDir };
}

describe('the catalog', () => {
  it('merges every upstream under vendor names and reports a change once', async () => {
    const { catalog, changes } = await (async () => {
      const s = setup();
      await s.catalog.start();
      return s;
    })();
    expect([...catalog.toolbox().all()].map((e) => e.name)).toEqual(['a__x', 'a__y', 'b__z']);
    expect(changes).toHaveLength(1);
    await catalog.refresh();
    expect(changes).toHaveLength(1); // same tools: no change
  });

  it('keeps the last-good tools of a failing upstream and marks it down', async () => {
    const s = setup();
    await s.catalog.start();
    s.twins.b.failing = true;
    await s.catalog.refresh();
    expect(s.catalog.toolbox().get('b__z')).toBeDefined();
    expect(s.catalog.statuses().find((x) => x.vendor === 'b')).toMatchObject({ status: 'down', toolCount: 1 });
  });

  it('refreshes only once the catalog TTL has passed on the injected clock', async () => {
    const s = setup();
    await s.catalog.start();
    s.twins.a.tools = [twinTool('x')];
    s.catalog.refreshIfStale();
    await s.catalog.refresh();
    // refresh() above was the explicit one; now check the TTL path alone
    s.twins.a.tools = [twinTool('w')];
    s.catalog.refreshIfStale(); // not stale yet: nothing happens
    await Promise.resolve();
    expect(s.catalog.toolbox().get('a__w')).toBeUndefined();
    s.clock.advance(1000);
    s.catalog.refreshIfStale();
    await s.catalog.refresh();
    expect(s.catalog.toolbox().get('a__w')).toBeDefined();
  });

  it('starts from catalog.json when the upstreams are down', async () => {
    const first = setup();
    await first.catalog.start();
    const second = setup(first.stateDir);
    second.twins.a.failing = true;
    second.twins.b.failing = true;
    await second.catalog.start();
    expect([...second.catalog.toolbox().all()].map((e) => e.name)).toEqual(['a__x', 'a__y', 'b__z']);
    expect(second.catalog.statuses().map((x) => x.source)).toEqual(['file', 'file']);
  });

  it('announces an upstream that is up by its first list (a tray drawn while it was starting redraws)', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-cat-'));
    const config = validateConfig({ stateDir, upstreams: { a: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
    const twin = new TwinUpstream('a', [twinTool('x')]);
    let status = 'starting';
    twin.info = () => ({ vendor: 'a', kind: 'http', status: status as 'up', era: '2026-07-28', lastError: undefined });
    twin.listTools = async () => ((status = 'up'), twin.tools);
    const seen: string[] = [];
    const catalog = new Catalog({
      config,
      build: buildToolbox,
      log: new MemoryLogger(),
      now: () => 0,
      onChange: () => {},
      onStatus: (v, s) => seen.push(`${v}:${s}`),
      connect: () => twin,
    });
    await catalog.start();
    expect(seen).toEqual(['a:up']);
    await catalog.stop();
  });
});
