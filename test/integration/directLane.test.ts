// Calls to a 2025-era stdio upstream take the direct lane (core/upstream/directLane.ts): seen from a
// real upstream process that records every message it reads, through the app as clients reach it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectClient, startApp, tempDir, textOf, type TestApp, type TestClient } from '../helpers/app.js';
import { FIXTURES } from '../helpers/processes.js';
import { until, withDeadline } from '../helpers/wait.js';
import { DirectLane } from '../../src-main/core/upstream/directLane.js';

type Seen = { id?: unknown; method?: string; params?: Record<string, unknown> };

describe('calls to a 2025-era stdio upstream', () => {
  let t: TestApp;
  let modern: TestClient;
  let legacy: TestClient;
  // The app runs in this process: the lane's calls are counted where they are made.
  const laneCalls = vi.spyOn(DirectLane.prototype, 'request');
  const logFile = join(tempDir(), 'upstream.jsonl');
  const seen = (): Seen[] =>
    existsSync(logFile)
      ? readFileSync(logFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Seen)
      : [];
  const calls = (tool: string) => seen().filter((m) => m.method === 'tools/call' && m.params?.name === tool);
  const cancelled = (id: unknown) => seen().some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === id);

  beforeAll(async () => {
    t = await startApp({
      upstreams: { rec: { command: process.execPath, args: [join(FIXTURES, 'recorder.mjs'), logFile] } },
      agents: [{ id: 'default', approvals: 'allow' }],
      // Long enough that only the behaviour under test can end a call within a test.
      timeouts: { callMs: 120_000 },
    });
    modern = await connectClient(`${t.url}/mcp`, 'auto');
    legacy = await connectClient(`${t.url}/mcp`, 'legacy');
  });
  afterAll(async () => {
    await modern?.close().catch(() => {});
    await legacy?.close().catch(() => {});
    await t?.stop();
    laneCalls.mockRestore();
  });

  it('go by the lane from clients of both eras, under the numbers the SDK client would have sent, and come back', async () => {
    for (const c of [modern, legacy]) {
      const before = laneCalls.mock.calls.length;
      const id = JSON.parse(textOf(await c.client.callTool({ name: 'rec__id', arguments: {} }))) as unknown;
      expect(laneCalls.mock.calls.length).toBe(before + 1);
      expect(Number.isInteger(id)).toBe(true);
      expect(calls('id').find((m) => m.id === id)).toEqual({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'id', arguments: {} },
      });
    }
  });

  it("give the client the upstream's error", async () => {
    await expect(legacy.client.callTool({ name: 'rec__fail', arguments: {} })).rejects.toThrow(/the recorder refused/);
    const r = await modern.client.callTool({ name: 'rec__fail', arguments: {} }).catch((e: unknown) => e);
    expect(String((r as Error).message ?? textOf(r as { content?: unknown }))).toMatch(/the recorder refused/);
  });

  it('that the client gives up on are cancelled at the upstream, under the id they were sent with', async () => {
    for (const c of [legacy, modern]) {
      const before = calls('hold').length;
      const abort = new AbortController();
      const call = c.client.callTool({ name: 'rec__hold', arguments: {} }, { signal: abort.signal }).catch((e: unknown) => e);
      const sent = await until(() => calls('hold')[before], 'the held call to reach the upstream');
      abort.abort('the user stopped it');
      await call;
      await until(() => cancelled(sent.id), `notifications/cancelled for ${String(sent.id)} at the upstream`);
    }
  });

  it('fail at once when the upstream exits in the middle, not at the call deadline', async () => {
    const before = laneCalls.mock.calls.length;
    const call = legacy.client.callTool({ name: 'rec__quit', arguments: {} }, { timeout: 110_000 });
    await expect(withDeadline(call, 'the call to an upstream that exited to fail')).rejects.toThrow(/closed/i);
    expect(laneCalls.mock.calls.length).toBe(before + 1);
    // It comes back (each try bounded by a deadline of its own), and the lane with it.
    const id = await until(async () => {
      const r = await withDeadline(legacy.client.callTool({ name: 'rec__id', arguments: {} }), 'one call to the restarting upstream').catch(
        () => undefined,
      );
      // A try that failed (or answered no id) is tried again.
      return r === undefined || r.isError ? undefined : ((JSON.parse(textOf(r) || 'null') as unknown) ?? undefined);
    }, 'the restarted upstream to answer');
    expect(Number.isInteger(id)).toBe(true);
    expect(laneCalls.mock.calls.length).toBeGreaterThan(before + 1);
  });

  it("with a progress token go the SDK's way, and the progress reaches the client", async () => {
    const before = laneCalls.mock.calls.length;
    const progress: number[] = [];
    const r = await legacy.client.callTool({ name: 'rec__progress', arguments: {} }, { onprogress: (p) => void progress.push(p.progress) });
    expect(typeof JSON.parse(textOf(r))).toBe('number');
    expect(progress).toEqual([1]);
    expect(laneCalls.mock.calls.length).toBe(before);
  });
});
