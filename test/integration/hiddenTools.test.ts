// Single tools of an upstream hidden from every agent and from search, kept in the config across a
// restart: in process through the ControlApi, and with `mws tool hide|unhide|list` against a real
// `mws serve`.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMws, spawnMws, stdioFixture, waitForOutput, type Running } from '../helpers/processes.js';
import { connectClient, startAppFromFile, tempDir, textOf, type FileApp, type TestClient } from '../helpers/app.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});
async function app(raw: Record<string, unknown>): Promise<FileApp> {
  const t = await startAppFromFile(raw);
  cleanups.push(() => t.stop());
  return t;
}
async function client(url: string): Promise<TestClient> {
  const c = await connectClient(url, 'auto');
  cleanups.push(() => c.close());
  return c;
}
const names = async (c: TestClient) => (await c.client.listTools()).tools.map((x) => x.name);
const searched = async (t: FileApp, query: string) => (await t.app.control.search({ agent: 'default', query })).hits.map((h) => h.name);

describe('a hidden tool', () => {
  it('leaves every list, search and call, for every agent, and comes back when shown', async () => {
    const raw = {
      upstreams: { s: stdioFixture() },
      pins: ['s__echo', 's__add'],
      agents: [{ id: 'default', approvals: 'allow' }, { id: 'bot' }],
    };
    const t = await app(raw);
    const c = await client(`${t.url}/mcp`);
    const bot = await client(`${t.url}/mcp/bot/mcp`);
    await vi.waitFor(async () => expect(await names(c)).toContain('s__echo'), { timeout: 10_000 });
    expect(await searched(t, 'echo the text back')).toContain('s__echo');

    const r = await t.app.control.setToolHidden({ vendor: 's', tool: 's__echo', hidden: true });
    expect(r).toEqual({ vendor: 's', tool: 'echo', hidden: true, changed: true, hiddenTools: ['echo'] });
    expect(JSON.parse(readFileSync(t.configPath, 'utf8')).hiddenTools).toEqual({ s: ['echo'] });
    for (const agent of [c, bot]) {
      await vi.waitFor(async () => expect(await names(agent)).not.toContain('s__echo'), { timeout: 10_000 });
      expect(await names(agent)).toContain('s__add'); // only that one tool
    }
    expect(await searched(t, 'echo the text back')).not.toContain('s__echo');
    expect(textOf(await c.client.callTool({ name: 'search_tools', arguments: { query: 'echo text' } }))).not.toContain('s__echo');
    await expect(c.client.callTool({ name: 's__echo', arguments: { text: 'hi' } })).rejects.toThrow(/No tool named "s__echo"/);
    expect(textOf(await c.client.callTool({ name: 'call_tool', arguments: { name: 's__echo', arguments: { text: 'hi' } } }))).toMatch(
      /No tool named "s__echo"/,
    );
    // The window still shows it, marked hidden, so it can be shown again.
    const rows = await t.app.control.upstreamTools({ vendor: 's' });
    expect(rows.find((x) => x.name === 's__echo')).toMatchObject({ hidden: true, agents: [] });
    expect(rows.find((x) => x.name === 's__add')).toMatchObject({ hidden: false });

    await t.app.control.setToolHidden({ vendor: 's', tool: 'echo', hidden: false });
    expect(JSON.parse(readFileSync(t.configPath, 'utf8')).hiddenTools).toBeUndefined();
    await vi.waitFor(async () => expect(await names(c)).toContain('s__echo'), { timeout: 10_000 });
    expect(textOf(await c.client.callTool({ name: 's__echo', arguments: { text: 'back' } }))).toBe('back');
  }, 60_000);

  it('stays hidden after a restart', async () => {
    const t = await app({ upstreams: { s: stdioFixture() }, pins: ['s__echo'], agents: [{ id: 'default', approvals: 'allow' }] });
    await t.app.control.setToolHidden({ vendor: 's', tool: 'echo', hidden: true });
    await t.stop();
    const again = await app(JSON.parse(readFileSync(t.configPath, 'utf8')) as Record<string, unknown>);
    const c = await client(`${again.url}/mcp`);
    await vi.waitFor(async () => expect((await again.app.control.upstreamTools({ vendor: 's' })).length).toBeGreaterThan(1), {
      timeout: 10_000,
    });
    expect(await names(c)).not.toContain('s__echo');
    expect(await searched(again, 'echo the text back')).not.toContain('s__echo');
    expect((await again.app.control.upstreamTools({ vendor: 's' })).find((x) => x.name === 's__echo')?.hidden).toBe(true);
  }, 60_000);

  it('refuses a name the upstream does not list, with the close one', async () => {
    const t = await app({ upstreams: { s: stdioFixture() } });
    await vi.waitFor(async () => expect((await t.app.control.upstreamTools({ vendor: 's' })).length).toBeGreaterThan(1), {
      timeout: 10_000,
    });
    await expect(t.app.control.setToolHidden({ vendor: 's', tool: 'ecko', hidden: true })).rejects.toThrow(
      /No tool named "ecko" at upstream "s"\. Close matches: echo\./,
    );
    await expect(t.app.control.setToolHidden({ vendor: 'nope', tool: 'echo', hidden: true })).rejects.toThrow(/No upstream "nope"/);
  }, 60_000);
});

describe('mws tool, against a running instance', () => {
  let serve: Running | undefined;
  let cfg: string;
  let url: string;
  const mws = (...args: string[]) => runMws([...args, '--config', cfg]);
  beforeAll(async () => {
    const dir = tempDir();
    cfg = join(dir, 'config.json');
    writeFileSync(
      cfg,
      JSON.stringify({ upstreams: { s: stdioFixture() }, stateDir: join(dir, 'state'), listen: { port: 0 }, pins: ['s__echo'] }, null, 2),
    );
    serve = spawnMws(['serve', '--config', cfg]);
    url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  }, 120_000);
  afterAll(async () => {
    await serve?.kill();
  });

  it('hides a tool, lists it as hidden, and shows it again', { timeout: 120_000 }, async () => {
    const c = await client(url);
    await vi.waitFor(async () => expect(await names(c)).toContain('s__echo'), { timeout: 30_000 });
    const hid = await mws('tool', 'hide', 's', 'echo');
    expect(hid.code).toBe(0);
    expect(hid.out.trim()).toBe('Hid "echo" of "s": it is in no agent\'s list, search or call. `mws tool unhide s echo` shows it again.');
    await vi.waitFor(async () => expect(await names(c)).not.toContain('s__echo'), { timeout: 10_000 });
    const list = await mws('tool', 'list', 's');
    expect(list.out).toMatch(/^tool\s+kind\s+hidden\s+listed by/m);
    expect(list.out).toMatch(/s__echo\s+read-only\s+hidden/);
    const bad = await mws('tool', 'hide', 's', 'ecko');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/No tool named "ecko" at upstream "s"\. Close matches: echo\./);
    const shown = await mws('tool', 'unhide', 's', 's__echo');
    expect(shown.out.trim()).toBe('Showed "echo" of "s" again: agents can find and call it.');
    await vi.waitFor(async () => expect(await names(c)).toContain('s__echo'), { timeout: 10_000 });
  });
});

describe('mws tool, with no instance running', () => {
  it('writes the config file, and says when it takes effect', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ upstreams: { s: stdioFixture() }, stateDir: join(dir, 'state') }, null, 2));
    const r = await runMws(['tool', 'hide', 's', 's__echo', '--config', cfg]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Hid "echo" of "s" in .*config\.json; it takes effect when Working Set starts\./);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).hiddenTools).toEqual({ s: ['echo'] });
    const usage = await runMws(['tool', 'hide', 's', '--config', cfg]);
    expect(usage.err).toMatch(/Name the tool: `mws tool hide s TOOL`\./);
  }, 60_000);
});
