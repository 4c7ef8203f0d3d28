// Approvals that fit clients: a call waiting for the user answers its client before the client's own
// timeout would fire, the entry stays in the inbox, and a retry of the same call joins it or runs at
// once after the grant.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { callKey } from '../../../src-main/core/approvals/retries.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await app?.stop();
  app = undefined;
});

const text = (r: { content?: unknown }) => (r.content as Array<{ text: string }>)[0]!.text;

async function core(timeouts: Record<string, number> = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-retry-'));
  const config = validateConfig(
    {
      stateDir,
      upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } },
      timeouts: { approvalMs: 600_000, approvalAnswerMs: 50_000, ...timeouts },
    },
    stateDir,
  );
  const twin = new TwinUpstream('v', [twinTool('write', false), twinTool('read', true)]);
  const clock = new ManualClock();
  app = createApp({ config, clock, log: new MemoryLogger(), connect: () => twin });
  await app.start({ listen: false, schedule: false });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  const ctx = { via: 'direct' as const, client: 'test', session: undefined };
  const call = (args: Record<string, unknown> = { to: 'ann' }, signal?: AbortSignal) =>
    app!.router.callTool('default', 'v__write', args, { ...ctx, ...(signal ? { signal } : {}) });
  return { app: app!, twin, call, clock };
}

/** Lets the gate reach its wait (grants and state files are awaited first). */
async function untilPending(a: App, n = 1) {
  for (let i = 0; i < 200 && a.gate.pending.list().length < n; i++) await vi.advanceTimersByTimeAsync(0);
  expect(a.gate.pending.list(), 'the call never reached the inbox').toHaveLength(n);
}

describe('a call waiting for approval', () => {
  it('answers its client before 60 s with a sentence that says it waits for the user and how to retry; the entry stays', async () => {
    const { app, twin, call } = await core();
    const first = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    const r = await first;
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("waits for the user's approval");
    expect(text(r)).toContain('mws approve v__write --agent default');
    expect(text(r)).toContain('call v__write again with the same arguments');
    expect(twin.calls).toEqual([]);
    expect(app.gate.pending.list()).toHaveLength(1); // still in the inbox
    expect(app.router.callsInFlight('default')).toBe(0);
    // The agent still waits for the user: the sweep leaves it alone.
    expect(app.sets.previewSweep(Date.now() + 400 * 86_400_000)).toEqual([]);
  });

  it('runs a retry at once after the user allows it, with no second ask', async () => {
    const { app, twin, call } = await core();
    const first = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    expect((await first).isError).toBe(true);
    await app.control.approve({ agent: 'default', tool: 'v__write' });
    expect(app.gate.pending.list()).toEqual([]);
    const retry = await call();
    expect(retry.isError).toBeUndefined();
    expect(twin.calls).toEqual([{ name: 'write', args: { to: 'ann' } }]);
  });

  it('runs the retry of the very call the user allowed once (key order aside), and only that one', async () => {
    const { app, twin, call } = await core();
    const first = call({ to: 'ann', body: 'hi' });
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    await first;
    const id = app.gate.pending.list()[0]!.id;
    await app.control.approve({ agent: 'default', tool: 'v__write', once: true, id });
    // A different call still asks.
    const other = call({ to: 'bob' });
    await untilPending(app);
    expect(app.gate.pending.list()[0]!.arguments).toEqual({ to: 'bob' });
    expect((await call({ body: 'hi', to: 'ann' })).isError).toBeUndefined();
    expect(twin.calls).toEqual([{ name: 'write', args: { body: 'hi', to: 'ann' } }]);
    // "Once" is once: the same call again asks again.
    const again = call({ to: 'ann', body: 'hi' });
    await untilPending(app, 2);
    await vi.advanceTimersByTimeAsync(50_000);
    expect((await other).isError).toBe(true);
    expect((await again).isError).toBe(true);
  });

  it('tells a retry the user said no', async () => {
    const { app, twin, call } = await core();
    const first = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    await first;
    await app.control.approve({ agent: 'default', tool: 'v__write', deny: true });
    const r = await call();
    expect(text(r)).toContain('The user did not allow v__write');
    expect(twin.calls).toEqual([]);
  });

  it('joins a retry made before the decision to the same inbox entry, and runs it when allowed', async () => {
    const { app, twin, call } = await core();
    const first = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    await first;
    const retry = call({ to: 'ann' });
    for (let i = 0; i < 50; i++) await vi.advanceTimersByTimeAsync(0);
    expect(app.gate.pending.list()).toHaveLength(1); // not asked twice
    await app.control.approve({ agent: 'default', tool: 'v__write', once: true });
    expect((await retry).isError).toBeUndefined();
    expect(twin.calls).toHaveLength(1);
    // The decision went to the waiting retry: a third call asks again.
    const third = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    expect((await third).isError).toBe(true);
  });

  it('a retry whose client goes away stops waiting and leaves the entry; the first client going away while it waits removes it', async () => {
    const { app, call } = await core();
    const first = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(50_000);
    await first;
    const ac = new AbortController();
    const retry = call({ to: 'ann' }, ac.signal);
    for (let i = 0; i < 50; i++) await vi.advanceTimersByTimeAsync(0);
    ac.abort();
    expect((await retry).isError).toBe(true);
    expect(app.gate.pending.list()).toHaveLength(1);
    await app.control.approve({ agent: 'default', tool: 'v__write', deny: true });

    const ac2 = new AbortController();
    const gone = call({ to: 'cy' }, ac2.signal);
    await untilPending(app);
    ac2.abort();
    await gone;
    expect(app.gate.pending.list()).toEqual([]);
  });

  it('waits the whole approval time when approvalAnswerMs is not shorter (the old behaviour)', async () => {
    const { app, call } = await core({ approvalMs: 30_000, approvalAnswerMs: 60_000 });
    const first = call();
    await untilPending(app);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(text(await first)).toContain('none came within 30 s');
    expect(app.gate.pending.list()).toEqual([]);
  });
});

describe('the same call', () => {
  it('is one agent, one tool and equal arguments whatever their key order', () => {
    expect(callKey('a', 't', { x: 1, y: [1, { b: 2, a: 1 }] })).toBe(callKey('a', 't', { y: [1, { a: 1, b: 2 }], x: 1 }));
    expect(callKey('a', 't', { x: 1 })).not.toBe(callKey('b', 't', { x: 1 }));
    expect(callKey('a', 't', { x: 1 })).not.toBe(callKey('a', 't', { x: '1' }));
  });
});

describe('client snippets', () => {
  it('give Codex a tool timeout that covers the approval answer and the call', async () => {
    const { clientToolTimeoutSec } = await import('../../../src-main/core/import/clientTimeouts.js');
    expect(clientToolTimeoutSec({ callMs: 120_000, approvalAnswerMs: 50_000 })).toBe(180);
    expect(clientToolTimeoutSec({ callMs: 600_000, approvalAnswerMs: 50_000 })).toBe(660);
    vi.useRealTimers();
    const { app } = await core({ callMs: 300_000 });
    const c = await app.control.clientConfigs({ agent: 'default' });
    const { parse } = await import('smol-toml');
    expect((parse(c.codex) as { mcp_servers: Record<string, object> }).mcp_servers.toolbox).toMatchObject({ tool_timeout_sec: 360 });
  });
});

describe('identical calls made at the same time', () => {
  it('each wait in their own inbox entry (the per-agent cap counts them); only a retry after the answer joins', async () => {
    const { app, call } = await core();
    const a = call();
    const b = call();
    await untilPending(app, 2);
    await vi.advanceTimersByTimeAsync(50_000);
    await Promise.all([a, b]);
    const retry = call();
    for (let i = 0; i < 50; i++) await vi.advanceTimersByTimeAsync(0);
    expect(app.gate.pending.list()).toHaveLength(2);
    await app.control.approve({ agent: 'default', tool: 'v__write' });
    expect((await retry).isError).toBeUndefined();
  });
});
