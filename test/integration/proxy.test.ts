// The proxy in front of real fixture upstreams of both eras and stdio, with clients of both eras.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { META_TOOL_NAMES } from '../../src-main/core/toolbox/reservedNames.js';
import { startHttpFixture, stdioFixture, type HttpFixture } from '../helpers/processes.js';
import { connectClient, startApp, textOf, type TestApp, type TestClient } from '../helpers/app.js';

let stateless: HttpFixture;
let session: HttpFixture;
let t: TestApp;
const clients: Record<'auto' | 'legacy', TestClient> = {} as never;

beforeAll(async () => {
  [stateless, session] = await Promise.all([startHttpFixture('stateless'), startHttpFixture('session')]);
  t = await startApp({
    upstreams: { stateless: { url: stateless.url }, session: { url: session.url }, stdio: stdioFixture() },
    pins: ['stateless__echo', 'session__add'],
    // Approvals have their own tests; here every tool runs at once.
    agents: [{ id: 'default', approvals: 'allow' }],
  });
  clients.auto = await connectClient(`${t.url}/mcp`, 'auto');
  clients.legacy = await connectClient(`${t.url}/mcp`, 'legacy');
});

afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c?.close().catch(() => {})));
  await t?.stop();
  await Promise.all([stateless?.kill(), session?.kill()]);
});

describe.each(['auto', 'legacy'] as const)('a %s client', (mode) => {
  it('speaks the era it negotiated', () => {
    expect(clients[mode].client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
  });

  it('lists the meta-tools first, then the pinned tools, slimmed', async () => {
    const { tools } = await clients[mode].client.listTools();
    expect(tools.map((x) => x.name)).toEqual([...META_TOOL_NAMES, 'stateless__echo', 'session__add']);
    const add = tools.find((x) => x.name === 'session__add')!;
    // $schema says which JSON Schema draft the keywords follow: the listing keeps it (json-schema-2020-12 scenario).
    expect(add.inputSchema).toHaveProperty('$schema', 'http://json-schema.org/draft-07/schema#');
    const props = add.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.a).toEqual({ type: 'number' }); // title "A" only repeated the key
    expect(props.note).toEqual({ type: 'string' }); // optional anyOf [string, null] collapsed, default null dropped
  });

  it('forwards a direct call of a listed tool and strips upstream identity from _meta', async () => {
    const r = await clients[mode].client.callTool({ name: 'stateless__echo', arguments: { text: 'hi' } });
    expect(textOf(r)).toBe('hi');
    // A 2026-07-28 answer carries the proxy's own identity, never the upstream's.
    expect((r._meta?.['io.modelcontextprotocol/serverInfo'] as { name?: string } | undefined)?.name ?? 'mcp-working-set').toBe(
      'mcp-working-set',
    );
    expect(r._meta?.keep).toBe(1);
  });

  it('forwards a direct call of a tool that is not listed', async () => {
    const r = await clients[mode].client.callTool({ name: 'stdio__whoami', arguments: {} });
    expect(Number(textOf(r))).toBeGreaterThan(0);
  });

  it('runs any tool through call_tool', async () => {
    const r = await clients[mode].client.callTool({ name: 'call_tool', arguments: { name: 'session__add', arguments: { a: 2, b: 3 } } });
    expect(textOf(r)).toBe('5');
  });

  it('refuses arguments that do not fit the schema, naming what is wrong', async () => {
    for (const r of [
      await clients[mode].client.callTool({ name: 'session__add', arguments: { a: 'x' } }),
      await clients[mode].client.callTool({ name: 'call_tool', arguments: { name: 'session__add', arguments: { a: 'x' } } }),
    ]) {
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/"b" is required/);
      expect(textOf(r)).toMatch(/"a" must be number/);
    }
  });

  it('passes upstream JSON-RPC errors and isError results through', async () => {
    await expect(clients[mode].client.callTool({ name: 'stateless__fail', arguments: {} })).rejects.toThrow(/fixture failure/);
    const r = await clients[mode].client.callTool({ name: 'stdio__is_error', arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('tool-level failure');
  });

  it('answers an unknown tool with a sentence', async () => {
    await expect(clients[mode].client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/No tool named "no_such_tool"/);
    const r = await clients[mode].client.callTool({ name: 'call_tool', arguments: { name: 'whoamii' } });
    expect(r.isError).toBe(true);
  });

  it('previews a write tool under dryRun and runs a read-only one', async () => {
    const preview = await clients[mode].client.callTool({
      name: 'call_tool',
      arguments: { name: 'stateless__toggle_extra', arguments: {}, dryRun: true },
    });
    expect(JSON.parse(textOf(preview))).toMatchObject({ dryRun: true, tool: 'stateless__toggle_extra' });
    const ran = await clients[mode].client.callTool({
      name: 'call_tool',
      arguments: { name: 'stateless__echo', arguments: { text: 'x' }, dryRun: true },
    });
    expect(textOf(ran)).toBe('x');
  });
});

describe('list_changed', () => {
  // Its own app and stdio upstream: these tests rewrite the working set and toggle upstream tools, which
  // must not change what the other tests here see, whatever order they run in.
  let lt: TestApp;
  const lc: Record<'auto' | 'legacy', TestClient> = {} as never;
  beforeAll(async () => {
    lt = await startApp({
      upstreams: { stateless: { url: stateless.url }, stdio: stdioFixture() },
      agents: [{ id: 'default', approvals: 'allow' }],
    });
    lc.auto = await connectClient(`${lt.url}/mcp`, 'auto');
    lc.legacy = await connectClient(`${lt.url}/mcp`, 'legacy');
  });
  afterAll(async () => {
    await Promise.all(Object.values(lc).map((c) => c?.close().catch(() => {})));
    await lt?.stop();
  });

  const has = (name: string) => (tools: { name: string }[]) => tools.some((x) => x.name === name);
  const both = (pred: (tools: { name: string }[]) => boolean, what: string) =>
    Promise.all([lc.auto.until(pred, `the auto client to hear ${what}`), lc.legacy.until(pred, `the legacy client to hear ${what}`)]);
  /** Writes working-set.json, after first emptying it, so the wait sees this write take effect and not an older list. */
  const seed = async (promoted: string[], marker: string) => {
    writeFileSync(join(lt.stateDir, 'working-set.json'), JSON.stringify({ promoted: [] }));
    await both((x) => !has(marker)(x), `${marker} gone`);
    writeFileSync(join(lt.stateDir, 'working-set.json'), JSON.stringify({ promoted }));
    await both(has(marker), `${marker} listed`);
  };
  /** Toggles an upstream's "extra" tool until it is in the state wanted (other tests may have left it either way). */
  const extraOn = async (vendor: string, on: boolean) => {
    for (let i = 0; i < 2; i++) {
      const r = textOf(await lc.auto.client.callTool({ name: `${vendor}__toggle_extra`, arguments: {} }));
      if (r === `extra=${on}`) return;
    }
    throw new Error(`${vendor}__toggle_extra never answered extra=${on}`);
  };

  it('reaches clients of both eras when working-set.json changes', async () => {
    await seed(['stdio__whoami'], 'stdio__whoami');
  });

  it('reaches them when an upstream announces new tools that are in the working set', async () => {
    await extraOn('stdio', false);
    await seed(['stdio__whoami', 'stdio__extra'], 'stdio__whoami');
    await extraOn('stdio', true);
    await both(has('stdio__extra'), 'stdio__extra listed');
  });

  it('reaches them when a modern (2026-07-28) upstream announces a change', async () => {
    await extraOn('stateless', false);
    await seed(['stdio__whoami', 'stateless__extra'], 'stdio__whoami');
    await extraOn('stateless', true);
    await both(has('stateless__extra'), 'stateless__extra listed');
  });
});

describe('a 2025 upstream whose session expired', () => {
  it('fails the call in flight once, never retried, and re-opens the session on the next list', async () => {
    // Its own session upstream: expiring every session must not fail the other tests' calls.
    const own = await startHttpFixture('session');
    const st = await startApp({ upstreams: { session: { url: own.url } }, agents: [{ id: 'default', approvals: 'allow' }] });
    const c = await connectClient(`${st.url}/mcp`, 'auto');
    try {
      expect(textOf(await c.client.callTool({ name: 'session__add', arguments: { a: 1, b: 2 } }))).toBe('3');
      await fetch(own.url.replace('/mcp', '/expire'), { method: 'POST' });
      await expect(c.client.callTool({ name: 'session__add', arguments: { a: 1, b: 1 } })).rejects.toThrow();
      await st.app.catalog.refresh();
      expect(st.app.catalog.statuses().find((s) => s.vendor === 'session')?.status).toBe('up');
      const r = await c.client.callTool({ name: 'session__add', arguments: { a: 1, b: 1 } });
      expect(textOf(r)).toBe('2');
    } finally {
      await c.close().catch(() => {});
      await st.stop();
      await own.kill();
    }
  });
});

describe('the call log', () => {
  it('records each forwarded call without arguments or results, in a 0600 file', async () => {
    // Its own app, whose stop flushes the log: the shared one keeps serving the other tests.
    const ct = await startApp({
      upstreams: { stateless: { url: stateless.url }, session: { url: session.url }, stdio: stdioFixture() },
      agents: [{ id: 'default', approvals: 'allow' }],
    });
    const c = await connectClient(`${ct.url}/mcp`, 'legacy');
    await c.client.callTool({ name: 'stateless__echo', arguments: { text: 'hi' } });
    await c.client.callTool({ name: 'call_tool', arguments: { name: 'session__add', arguments: { a: 2, b: 3 } } });
    await expect(c.client.callTool({ name: 'stateless__fail', arguments: {} })).rejects.toThrow();
    await c.client.callTool({ name: 'stdio__whoami', arguments: {} });
    await c.client.callTool({ name: 'stdio__is_error', arguments: {} });
    await c.client.callTool({ name: 'session__add', arguments: { a: 1, b: 1 } });
    await c.close();
    await ct.stop(); // flushes the log
    const path = join(ct.stateDir, 'calls.jsonl');
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(5);
    const fields = ['agent', 'client', 'ms', 'ok', 'session', 'tool', 'ts', 'upstream', 'via'];
    // A failed call says why, in one line (never its arguments or result).
    for (const l of lines) expect(Object.keys(l).sort()).toEqual(l.ok ? fields : [...fields, 'reason'].sort());
    expect(lines.some((l) => l.via === 'call_tool' && l.tool === 'session__add' && l.ok === true)).toBe(true);
    expect(lines.some((l) => l.tool === 'stateless__fail' && l.ok === false)).toBe(true);
    expect(lines.some((l) => typeof l.session === 'string')).toBe(true); // 2025 clients have sessions
    expect(readFileSync(path, 'utf8')).not.toContain('"hi"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
