// The periodic re-list compares an upstream's tools in slices: at 5,000 tools the
// comparison took tens of ms (hundreds under load) of one synchronous stretch, and every call waited.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Catalog } from '../../../src-main/core/upstream/catalog.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import type { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { generateCatalog } from '../../../bench/genCatalog.js';
import { TwinUpstream } from '../../helpers/twins.js';
import { buildToolbox } from '../../../src-main/core/toolbox/merge.js';

const copy = (tools: Tool[]) => JSON.parse(JSON.stringify(tools)) as Tool[];

function setup(n: number) {
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-catslice-'));
  const config = validateConfig({ stateDir, upstreams: { a: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
  const twin = new TwinUpstream('a', generateCatalog(n).tools as Tool[]);
  const changes: Toolbox[] = [];
  const catalog = new Catalog({
    config,
    build: buildToolbox,
    log: new MemoryLogger(),
    now: () => new ManualClock().now(),
    onChange: (t) => changes.push(t),
    connect: () => twin,
  });
  return { catalog, twin, changes };
}

/** Counts event-loop turns (setImmediate) until stopped. */
function turns(): { count: () => number; stop: () => void } {
  let n = 0;
  let on = true;
  const tick = () => {
    if (!on) return;
    n++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return { count: () => n, stop: () => (on = false) };
}

describe('re-listing a big upstream', () => {
  it('compares 5,000 unchanged tools with the event loop turning in between, and finds no change', async () => {
    const s = setup(5000);
    await s.catalog.start();
    expect(s.changes).toHaveLength(1);
    s.twin.tools = copy(s.twin.tools);
    const t = turns();
    await s.catalog.refresh();
    t.stop();
    expect(t.count()).toBeGreaterThan(0);
    expect(s.changes).toHaveLength(1);
    await s.catalog.stop();
  });

  it('never lands a list asked for earlier after a later one, whichever answer arrives first', async () => {
    const s = setup(5000);
    await s.catalog.start();
    const v1 = copy(s.twin.tools);
    v1[3] = { ...v1[3]!, description: 'v1' };
    s.twin.tools = v1;
    const first = s.catalog.refresh();
    const v2 = copy(v1);
    v2[3] = { ...v2[3]!, description: 'v2' };
    s.twin.tools = v2;
    const second = s.catalog.relist('a');
    await Promise.all([first, second]);
    const tool = [...s.catalog.toolbox().all()][3]!;
    expect(tool.tool.description).toBe('v2');
    await s.catalog.stop();
  });
});
