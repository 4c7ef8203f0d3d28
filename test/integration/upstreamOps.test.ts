// Upstreams you can run: turn one off (kept in the config, its tools out of every list and search,
// status off) and on again, restart it (a new process), read its log (stderr and connection events);
// and the activity log of calls, with arguments kept only when asked, rotated past its size.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stdioFixture } from '../helpers/processes.js';
import { connectClient, startAppFromFile, textOf, type FileApp, type TestClient } from '../helpers/app.js';

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
/** A server that says why it cannot start, on stderr, and exits. */
const failing = { command: process.execPath, args: ['-e', "console.error('GITHUB_TOKEN is not set'); process.exit(1)"] };

describe('an upstream turned off and on', () => {
  it('is kept in the config as enabled: false, its tools leave every list and search, and come back', async () => {
    const t = await app({ upstreams: { s: stdioFixture() }, pins: ['s__whoami'], agents: [{ id: 'default', approvals: 'allow' }] });
    const c = await client(`${t.url}/mcp`);
    expect((await c.client.listTools()).tools.map((x) => x.name)).toContain('s__whoami');
    const rows = await t.app.control.setUpstreamEnabled({ vendor: 's', enabled: false });
    expect(rows.find((r) => r.vendor === 's')).toMatchObject({ status: 'off', enabled: false, toolCount: 0 });
    expect(JSON.parse(readFileSync(t.configPath, 'utf8')).upstreams.s).toMatchObject({ enabled: false });
    await vi.waitFor(async () => expect((await c.client.listTools()).tools.map((x) => x.name)).not.toContain('s__whoami'), {
      timeout: 10_000,
    });
    expect((await t.app.control.search({ agent: 'default', query: 'whoami' })).hits.map((h) => h.name)).not.toContain('s__whoami');
    expect((await t.app.control.status({})).upstreams.find((u) => u.vendor === 's')?.status).toBe('off');
    // Still pinned and in the set: off is not removed.
    expect((await t.app.control.workingSet({ agent: 'default' })).map((m) => m.tool)).toContain('s__whoami');
    // An edit from the window keeps it off.
    await t.app.control.saveUpstream({ vendor: 's', upstream: stdioFixture(), replace: true });
    expect(JSON.parse(readFileSync(t.configPath, 'utf8')).upstreams.s.enabled).toBe(false);
    await expect(t.app.control.restartUpstream({ vendor: 's' })).rejects.toThrow(/turned off; turn it on/);
    await t.app.control.setUpstreamEnabled({ vendor: 's', enabled: true });
    expect(JSON.parse(readFileSync(t.configPath, 'utf8')).upstreams.s.enabled).toBeUndefined();
    await vi.waitFor(async () => expect((await c.client.listTools()).tools.map((x) => x.name)).toContain('s__whoami'), { timeout: 15_000 });
    expect(textOf(await c.client.callTool({ name: 's__whoami', arguments: {} }))).toMatch(/^\d+$/);
  }, 60_000);
});

describe('an upstream turned off', () => {
  it('tells each agent its tools changed once, not twice', async () => {
    const t = await app({
      upstreams: { s: stdioFixture() },
      pins: ['s__whoami'],
      agents: [{ id: 'default', approvals: 'allow' }, { id: 'other' }],
    });
    // Both agents' clients have their lists (what the listings are compared against).
    const d = await client(`${t.url}/mcp`);
    await vi.waitFor(async () => expect((await d.client.listTools()).tools.map((x) => x.name)).toContain('s__whoami'), { timeout: 15_000 });
    const o = await client(`${t.url}/mcp/other/mcp`);
    await o.client.listTools();
    const told: string[] = [];
    const off = t.app.events.on((e) => {
      if (e.type === 'setChanged') told.push(e.agent);
    });
    try {
      await t.app.control.setUpstreamEnabled({ vendor: 's', enabled: false });
    } finally {
      off();
    }
    // Each hears once: default's list loses s__whoami, and every search_tools names the backends left.
    expect(told.filter((a) => a === 'default')).toHaveLength(1);
    expect(told.filter((a) => a === 'other')).toHaveLength(1);
  }, 30_000);
});

describe('restart and the log view', () => {
  it('restarts a stdio upstream as a new process and logs it', async () => {
    const t = await app({ upstreams: { s: stdioFixture() }, agents: [{ id: 'default', approvals: 'allow' }] });
    const c = await client(`${t.url}/mcp`);
    const pid1 = textOf(await c.client.callTool({ name: 's__whoami', arguments: {} }));
    const rows = await t.app.control.restartUpstream({ vendor: 's' });
    expect(rows.find((r) => r.vendor === 's')?.status).toBe('up');
    const pid2 = textOf(await c.client.callTool({ name: 's__whoami', arguments: {} }));
    expect(pid2).not.toBe(pid1);
    const log = await t.app.control.upstreamLog({ vendor: 's' });
    expect(log.lines.map((l) => l.text)).toEqual(
      expect.arrayContaining(['restart asked by the user', expect.stringMatching(/^connected/)]),
    );
    await expect(t.app.control.upstreamLog({ vendor: 'nope' })).rejects.toThrow(/No upstream "nope" in the config. The upstreams are: s/);
  }, 60_000);

  it('shows what a failing server printed on stderr and why it is down, once per reason however often it is retried', async () => {
    const t = await app({ upstreams: { bad: failing }, timeouts: { listMs: 3000 } });
    await vi.waitFor(
      async () => {
        const v = await t.app.control.upstreamLog({ vendor: 'bad' });
        expect(v.lines.map((l) => l.text)).toContain('GITHUB_TOKEN is not set');
        expect(v.lines.some((l) => l.kind === 'event' && l.text.startsWith('down:'))).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
    await t.app.control.restartUpstream({ vendor: 'bad' }).catch(() => {});
    await vi.waitFor(
      async () =>
        expect(
          (await t.app.control.upstreamLog({ vendor: 'bad' })).lines.filter((l) => l.text === 'GITHUB_TOKEN is not set').length,
        ).toBeGreaterThanOrEqual(2),
      { timeout: 20_000, interval: 100 },
    );
    const v = await t.app.control.upstreamLog({ vendor: 'bad', lines: 3 });
    expect(v.lines).toHaveLength(3);
    expect(v.status).toMatch(/down|starting/);
  }, 60_000);
});

describe('the activity log', () => {
  it('records agent, tool, upstream, duration and ok, without arguments unless asked', async () => {
    const t = await app({ upstreams: { s: stdioFixture() }, agents: [{ id: 'default', approvals: 'allow' }] });
    const c = await client(`${t.url}/mcp`);
    await c.client.callTool({ name: 's__echo', arguments: { text: 'secret-words' } });
    // Records are written right after the call's turn: looked for until there (a deadline, not a sleep).
    await vi.waitFor(async () => expect(await t.app.control.activity({})).toHaveLength(1), { timeout: 5000 });
    const calls = await t.app.control.activity({});
    expect(calls[0]).toMatchObject({ agent: 'default', tool: 's__echo', upstream: 's', ok: true });
    expect(JSON.stringify(calls)).not.toContain('secret-words');
    expect(readFileSync(join(t.stateDir, 'calls.jsonl'), 'utf8')).not.toContain('secret-words');
  }, 60_000);

  it('records calls refused before they ran, and why each call failed or was refused', async () => {
    const t = await app({
      upstreams: { s: stdioFixture() },
      agents: [
        { id: 'default', approvals: 'allow' },
        { id: 'ro', approvals: 'read-only' },
      ],
    });
    const c = await client(`${t.url}/mcp`);
    const ro = await client(`${t.url}/mcp/ro/mcp`);
    // Arguments that do not fit the schema, a name no upstream lists (direct and through call_tool).
    expect(textOf(await c.client.callTool({ name: 's__echo', arguments: { text: 5 } }))).toMatch(/text/);
    await expect(c.client.callTool({ name: 'nope__nothing', arguments: {} })).rejects.toThrow(/nope__nothing/);
    await c.client.callTool({ name: 'call_tool', arguments: { name: 'nothing_at_all' } });
    // Ran and failed: a JSON-RPC error and an isError result.
    await expect(c.client.callTool({ name: 's__fail', arguments: {} })).rejects.toThrow(/backend refused/);
    await c.client.callTool({ name: 's__is_error', arguments: {} });
    // A read-only agent's approval rule refuses a tool that writes.
    await ro.client.callTool({ name: 'call_tool', arguments: { name: 's__toggle_extra' } });
    await vi.waitFor(async () => expect(await t.app.control.activity({})).toHaveLength(6), { timeout: 5000 });
    const calls = (await t.app.control.activity({})).reverse();
    expect(calls.map((e) => [e.agent, e.tool, e.ok, e.refused ?? false])).toEqual([
      ['default', 's__echo', false, true],
      ['default', 'nope__nothing', false, true],
      ['default', 'nothing_at_all', false, true],
      ['default', 's__fail', false, false],
      ['default', 's__is_error', false, false],
      ['ro', 's__toggle_extra', false, true],
    ]);
    expect(calls[0]!.reason).toMatch(/text/);
    expect(calls[1]!.reason).toMatch(/No tool .*nope__nothing/i);
    expect(calls[2]!.reason).toMatch(/nothing_at_all/);
    expect(calls[3]!.reason).toMatch(/fixture failure: the backend refused/);
    expect(calls[4]!.reason).toBe('tool-level failure');
    expect(calls[5]!.reason).toMatch(/read-only/);
    for (const e of calls) expect(e.reason!.length).toBeLessThanOrEqual(300);
    // Refusals never count as use or failure of a tool.
    const report = JSON.stringify(await t.app.control.report({ agent: 'default' }));
    expect(report).not.toContain('nope__nothing');
  }, 60_000);

  it('keeps arguments and the start of results when the user turns recordArguments on', async () => {
    const t = await app({
      upstreams: { s: stdioFixture() },
      agents: [{ id: 'default', approvals: 'allow' }],
      activity: { recordArguments: true },
    });
    const c = await client(`${t.url}/mcp`);
    await c.client.callTool({ name: 's__echo', arguments: { text: 'x'.repeat(10_000) } });
    await vi.waitFor(async () => expect(await t.app.control.activity({})).toHaveLength(1), { timeout: 5000 });
    const [e] = await t.app.control.activity({ agent: 'default', limit: 1 });
    expect(JSON.stringify(e!.arguments).length).toBeLessThan(1000); // the preview cuts long strings
    expect(e!.result!.length).toBeLessThanOrEqual(4096 + 40);
  }, 60_000);
});
