// Learning only from related calls: a search→call pair comes from one client connection, and only
// when the called tool was among the search's results. Before, `everything__echo` learned "graph,
// knowledge" from a search in another client process whose results did not contain it.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { SearchCallPairing } from '../../../src-main/core/metaTools/searchPairing.js';
import { TwinUpstream } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: 'object' as const, properties: {} },
  annotations: { readOnlyHint: true },
});

async function core() {
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-pair-'));
  const config = validateConfig(
    { stateDir, upstreams: { memory: { url: 'http://127.0.0.1:1/mcp' }, everything: { url: 'http://127.0.0.1:2/mcp' } } },
    stateDir,
  );
  const twins: Record<string, TwinUpstream> = {
    memory: new TwinUpstream('memory', [
      tool('read_graph', 'Read the whole knowledge graph'),
      tool('search_nodes', 'Search the knowledge graph nodes'),
    ]),
    everything: new TwinUpstream('everything', [tool('echo', 'Echoes back the input'), tool('add', 'Adds two numbers')]),
  };
  app = createApp({ config, clock: new ManualClock(), log: new MemoryLogger(), connect: (v) => twins[v]! });
  await app.start({ listen: false, schedule: false });
  const a = { via: 'direct' as const, client: 'claude-code', session: 'sess-a' };
  const b = { via: 'direct' as const, client: 'claude-code', session: 'sess-b' };
  const shown = async (ctx: typeof a, query: string) => {
    const r = await app!.router.callTool('default', 'search_tools', { query }, ctx);
    return JSON.parse((r.content![0] as { text: string }).text) as { results?: Array<{ name: string }> };
  };
  return { app: app!, a, b, shown };
}
const learned = (a: App, t: string) => a.search.learning!.wordsFor(t).map((w) => w.word);
const pairs = (a: App) => a.search.learning!.counts().default ?? 0;

describe('what search learns from', () => {
  it('not a call from another connection of the same agent', async () => {
    const { app, a, b, shown } = await core();
    const r = await shown(a, 'graph knowledge');
    expect(r.results?.map((x) => x.name)).not.toContain('everything__echo');
    await app.router.callTool('default', 'everything__echo', {}, b);
    expect(pairs(app)).toBe(0);
    expect(learned(app, 'everything__echo')).toEqual([]);
  });

  it('not a call (nor a promotion) of a tool the search did not show, from the same connection', async () => {
    const { app, a, shown } = await core();
    await shown(a, 'graph knowledge');
    await app.router.callTool('default', 'everything__echo', {}, a);
    await app.router.callTool('default', 'promote', { name: 'everything__add' }, a);
    expect(pairs(app)).toBe(0);
  });

  it('a call of a shown tool from the same connection', async () => {
    const { app, a, shown } = await core();
    const r = await shown(a, 'graph knowledge');
    expect(r.results?.map((x) => x.name)).toContain('memory__read_graph');
    await app.router.callTool('default', 'memory__read_graph', {}, a);
    expect(pairs(app)).toBeGreaterThan(0);
  });
});

describe('SearchCallPairing', () => {
  it("pairs a call with the agent's latest search only, from its connection, for a shown tool", () => {
    const p = new SearchCallPairing();
    const a = { client: 'c', session: 's1' };
    const b = { client: 'c', session: 's2' };
    const stateless = { client: 'codex', session: undefined };
    expect(p.allows('x', 't', a)).toBe(false);
    p.searched('x', a, ['t', 'u']);
    expect(p.allows('x', 'u', a)).toBe(true);
    expect(p.allows('x', 'v', a)).toBe(false);
    expect(p.allows('x', 't', b)).toBe(false);
    expect(p.allows('y', 't', a)).toBe(false);
    expect(p.allows('x', 't', undefined)).toBe(false);
    p.searched('x', b, ['t']); // another connection searched since: a's call would pair with b's query
    expect(p.allows('x', 't', a)).toBe(false);
    p.searched('x', stateless, ['t']);
    expect(p.allows('x', 't', { client: 'codex', session: undefined })).toBe(true);
  });
});
