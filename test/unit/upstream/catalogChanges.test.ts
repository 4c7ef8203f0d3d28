// An upstream change costs what changed: tools are compared one by one, unchanged ones keep their
// object (so their hash and listing are reused), and catalog.json is written compact, off the path.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Catalog } from '../../../src-main/core/upstream/catalog.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import type { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';
import { buildToolbox } from '../../../src-main/core/toolbox/merge.js';

function setup() {
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-catchg-'));
  const config = validateConfig({ stateDir, upstreams: { a: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
  const twin = new TwinUpstream(
    'a',
    Array.from({ length: 50 }, (_, i) => twinTool(`t${i}`)),
  );
  const changes: Toolbox[] = [];
  const catalog = new Catalog({
    config,
    build: buildToolbox,
    log: new MemoryLogger(),
    now: () => new ManualClock().now(),
    onChange: (t) => changes.push(t),
    connect: () => twin,
  });
  return { catalog, twin, changes, stateDir };
}

/** A fresh copy, as a new tools/list reply would be: equal content, new objects. */
const copy = (tools: Tool[]) => JSON.parse(JSON.stringify(tools)) as Tool[];

describe('an upstream change', () => {
  it('keeps the objects, hashes and listings of unchanged tools and replaces only the changed one', async () => {
    const s = setup();
    await s.catalog.start();
    const before = s.catalog.toolbox();
    const listedBefore = before.listed(before.get('a__t1')!, false);
    const next = copy(s.twin.tools);
    next[7] = { ...next[7]!, description: 'rewritten' };
    s.twin.tools = next;
    await s.catalog.refresh();
    expect(s.changes).toHaveLength(2);
    const after = s.catalog.toolbox();
    expect(after.get('a__t1')!.tool).toBe(before.get('a__t1')!.tool);
    expect(after.listed(after.get('a__t1')!, false)).toBe(listedBefore);
    expect(after.get('a__t7')!.tool).not.toBe(before.get('a__t7')!.tool);
    expect(after.get('a__t7')!.hash).not.toBe(before.get('a__t7')!.hash);
    expect(after.get('a__t7')!.tool.description).toBe('rewritten');
    await s.catalog.stop();
  });

  it('is no change at all when a new reply lists the same tools', async () => {
    const s = setup();
    await s.catalog.start();
    const tb = s.catalog.toolbox();
    s.twin.tools = copy(s.twin.tools);
    await s.catalog.refresh();
    expect(s.changes).toHaveLength(1);
    expect(s.catalog.toolbox()).toBe(tb);
    // Reordering is a change: listings follow the upstream's order.
    s.twin.tools = copy(s.twin.tools).reverse();
    await s.catalog.refresh();
    expect(s.changes).toHaveLength(2);
    await s.catalog.stop();
  });

  it('writes catalog.json compact, after the change rather than during it, and on stop', async () => {
    const s = setup();
    await s.catalog.start();
    const file = join(s.stateDir, 'catalog.json');
    const first = readFileSync(file, 'utf8');
    expect(first.trimEnd().includes('\n')).toBe(false);
    expect(JSON.parse(first).upstreams.a.tools).toHaveLength(50);
    s.twin.tools = [...copy(s.twin.tools), twinTool('late')];
    await s.catalog.refresh();
    expect(s.catalog.toolbox().get('a__late')).toBeDefined();
    expect(readFileSync(file, 'utf8')).toBe(first); // the refresh did not wait for a write
    await s.catalog.stop();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { upstreams: { a: { tools: Tool[] } } };
    expect(saved.upstreams.a.tools.map((t) => t.name)).toContain('late');
    expect(existsSync(file)).toBe(true);
  });
});
