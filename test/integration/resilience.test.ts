// Upstreams that die, hang or vanish: the proxy keeps serving what it last knew and never blocks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { META_TOOL_NAMES } from '../../src-main/core/toolbox/reservedNames.js';
import { deadPort, startHttpFixture, stdioFixture, type HttpFixture } from '../helpers/processes.js';
import { connectClient, startApp, tempDir, textOf, type TestApp, type TestClient } from '../helpers/app.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});
async function app(raw: Record<string, unknown>, stateDir?: string): Promise<TestApp> {
  const t = await startApp(raw, stateDir);
  cleanups.push(() => t.stop());
  return t;
}
async function client(url: string, mode: 'auto' | 'legacy' = 'auto'): Promise<TestClient> {
  const c = await connectClient(url, mode);
  cleanups.push(() => c.close());
  return c;
}
async function fixture(mode: 'stateless' | 'session' | 'hung'): Promise<HttpFixture> {
  const f = await startHttpFixture(mode);
  cleanups.push(() => f.kill());
  return f;
}

describe('a stdio upstream that exits', () => {
  it('is restarted, and its tools stay listed meanwhile', async () => {
    const t = await app({ upstreams: { s: stdioFixture() }, pins: ['s__whoami'], agents: [{ id: 'default', approvals: 'allow' }] });
    const c = await client(`${t.url}/mcp`);
    const pid1 = textOf(await c.client.callTool({ name: 's__whoami', arguments: {} }));
    await c.client.callTool({ name: 's__crash', arguments: {} });
    expect((await c.client.listTools()).tools.map((x) => x.name)).toContain('s__whoami');
    // Waits for the restart (an event), polling the real process rather than sleeping a fixed time.
    await vi.waitFor(
      async () => {
        const pid2 = textOf(await c.client.callTool({ name: 's__whoami', arguments: {} }));
        expect(Number(pid2)).toBeGreaterThan(0);
        expect(pid2).not.toBe(pid1);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(t.app.catalog.statuses()[0]?.status).toBe('up');
  });
});

describe('an upstream that dies', () => {
  it('keeps being served from the last-good catalog, in memory and from catalog.json after a restart', async () => {
    const stateDir = tempDir();
    const f = await startHttpFixture('stateless');
    const t1 = await startApp({ upstreams: { up: { url: f.url } }, pins: ['up__echo'], timeouts: { catalogTtlMs: 0 } }, stateDir);
    const c1 = await connectClient(`${t1.url}/mcp`, 'auto');
    expect((await c1.client.listTools()).tools.map((x) => x.name)).toContain('up__echo');
    await f.kill();
    await t1.app.catalog.refresh(); // fails: the upstream is gone
    expect(t1.app.catalog.statuses()[0]?.status).toBe('down');
    expect((await c1.client.listTools()).tools.map((x) => x.name)).toContain('up__echo');
    await c1.close();
    await t1.stop();

    const catalogFile = join(stateDir, 'catalog.json');
    expect(statSync(catalogFile).mode & 0o777).toBe(0o600);
    const t2 = await app({ upstreams: { up: { url: f.url } }, pins: ['up__echo'] }, stateDir);
    const c2 = await client(`${t2.url}/mcp`, 'legacy');
    expect((await c2.client.listTools()).tools.map((x) => x.name)).toEqual([...META_TOOL_NAMES, 'up__echo']);
    expect(t2.app.catalog.statuses()[0]).toMatchObject({ status: 'down', source: 'file', toolCount: 8 });
    // The tool is listed but its upstream is down: the call fails with a sentence, not a hang.
    await expect(c2.client.callTool({ name: 'up__echo', arguments: { text: 'x' } })).rejects.toThrow(/could not be run|did not/);
  });

  it('with no catalog at all, lists only the meta-tools', async () => {
    const stateDir = tempDir();
    const t = await app({ upstreams: { gone: { url: `http://127.0.0.1:${await deadPort()}/mcp` } }, pins: ['gone__echo'] }, stateDir);
    const c = await client(`${t.url}/mcp`);
    expect((await c.client.listTools()).tools.map((x) => x.name)).toEqual([...META_TOOL_NAMES]);
    expect(existsSync(join(stateDir, 'catalog.json'))).toBe(false);
  });
});

describe('a hung upstream', () => {
  it('does not block the others: their tools are listed and callable within the list budget', async () => {
    const [hung, ok] = await Promise.all([fixture('hung'), fixture('stateless')]);
    const t = await app({
      upstreams: { hung: { url: hung.url }, ok: { url: ok.url } },
      pins: ['ok__echo', 'hung__echo'],
      // The hung one must use up its budget; the healthy one must answer within it even on a loaded machine.
      timeouts: { listMs: 3000, callMs: 3000 },
    });
    const c = await client(`${t.url}/mcp`);
    expect((await c.client.listTools()).tools.map((x) => x.name)).toEqual([...META_TOOL_NAMES, 'ok__echo']);
    expect(textOf(await c.client.callTool({ name: 'ok__echo', arguments: { text: 'fine' } }))).toBe('fine');
    // It accepted the connection and never answered initialize: still starting, within timeouts.connectMs.
    expect(t.app.catalog.statuses().find((s) => s.vendor === 'hung')?.status).toBe('starting');
  });

  it('fails a call that outlives timeouts.callMs with a clear message', async () => {
    const ok = await fixture('stateless');
    const t = await app({ upstreams: { ok: { url: ok.url } }, timeouts: { callMs: 300 } });
    const c = await client(`${t.url}/mcp`);
    await expect(c.client.callTool({ name: 'ok__slow', arguments: { ms: 3000 } })).rejects.toThrow(/timeouts\.callMs|timed out|did not/i);
  });
});

describe('an upstream that revokes access', () => {
  it('is marked revoked, and its tools leave every working set with cause revoked', async () => {
    const f = await fixture('stateless');
    const t = await app({ upstreams: { f: { url: f.url } }, agents: [{ id: 'default', approvals: 'allow' }, { id: 'bot' }] });
    await t.app.router.ready();
    await t.app.control.promote({ agent: 'default', tool: 'f__echo' });
    await t.app.control.promote({ agent: 'bot', tool: 'f__echo' });
    await fetch(f.url.replace('/mcp', '/revoke'), { method: 'POST' });
    const demoted: string[] = [];
    t.app.events.on((e) => e.type === 'toolsDemoted' && demoted.push(`${e.agent}:${e.tools.join(',')}:${e.cause}`));
    await t.app.catalog.refresh();
    expect(t.app.catalog.statuses()[0]?.status).toBe('revoked');
    const { decisions } = await t.app.control.cycle({});
    expect(decisions.map((d) => `${d.agent}:${d.tool}:${d.cause}`).sort()).toEqual(['bot:f__echo:revoked', 'default:f__echo:revoked']);
    expect(demoted.sort()).toEqual(['bot:f__echo:revoked', 'default:f__echo:revoked']);
  });
});
