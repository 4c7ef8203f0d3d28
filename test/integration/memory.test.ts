// Memory stays bounded under two floods: calls waiting for approval (any local
// client can send them, each holding its arguments) and bare 2025 `initialize` requests (each a
// session with a Server and a transport); and under a flood of request bodies stalled one
// byte short. Measured with a forced GC, in this process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AgentEndpoint, LEGACY_SESSION_IDLE_MS, MAX_LEGACY_SESSIONS } from '../../src-main/core/proxy/endpoint.js';
import type { AgentRuntime } from '../../src-main/core/proxy/runtime.js';
import { silentLogger } from '../../src-main/core/log.js';
import { connect, type Socket } from 'node:net';
import { BODY_BUDGET_BYTES } from '../../src-main/core/http/edgeLimits.js';
import { startApp, type TestApp } from '../helpers/app.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes held by JS: heap plus buffers, after two full collections. */
function held(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

const MB = 1024 * 1024;

describe('calls waiting for approval', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ upstream: { builtin: 'demo' }, timeouts: { approvalMs: 600_000 }, agents: [{ id: 'asker', approvals: 'ask' }] });
  });
  afterAll(() => t?.stop());

  const call = (content: string, tool = 'drive_upload_file', args: Record<string, unknown> = { name: 'a.txt', content }) =>
    fetch(`${t.url}/mcp/asker`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': tool,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: tool,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'flood', version: '1' },
          },
        },
      }),
    }).then((r) => r.json() as Promise<{ result: { content: Array<{ text: string }> } }>);

  it('holds at most the cap, and returns to its baseline once the calls end', async () => {
    // One call first, so lazily built parts (validators, listings) are not counted as held.
    const warm = call('w');
    await expect.poll(() => t.app.gate.pending.list().length, { timeout: 30_000 }).toBe(1);
    await t.app.control.approve({ agent: 'asker', tool: 'drive_upload_file', deny: true });
    await warm;
    // And one that runs (a read-only tool needs no approval): argument checks load their validator
    // library on first use, which would otherwise count as held (~3 MB).
    await call('', 'drive_search_files', { query: 'warm' });
    const baseline = held();

    // 40 calls of 450 KB each: 16 wait (7 MB, under the 8 MB cap), the rest are refused at once.
    const answered: string[] = [];
    const calls = Array.from({ length: 40 }, (_, i) =>
      call(String(i % 10).repeat(450_000)).then((r) => (answered.push(r.result.content[0]!.text), r)),
    );
    await expect.poll(() => t.app.gate.pending.list().length, { timeout: 60_000 }).toBe(16);
    // Which 16 got in depends on arrival order, not on sending order (under load a late-sent call can
    // wait while an early one is refused): the 24 answers are awaited as they come, whichever they are.
    await expect.poll(() => answered.length, { timeout: 60_000 }).toBe(24);
    expect(answered.filter((text) => /already waiting/.test(text)).length + 16).toBeGreaterThanOrEqual(24);
    const during = held();
    expect(t.app.gate.pending.heldBytes).toBeGreaterThan(7_000_000);

    await t.app.control.approve({ agent: 'asker', tool: 'drive_upload_file', deny: true });
    await Promise.all(calls);
    expect(t.app.gate.pending.heldBytes).toBe(0);
    const after = held();
    // The arguments were held while waiting (7 MB), and released after. What stays is code and
    // connection buffers of 40 calls in this process: 2.6–3.2 MB measured, so 3 MB flaked under load;
    // 5 MB still fails if the held arguments were kept.
    expect(during - baseline).toBeGreaterThan(5 * MB);
    expect(after - baseline, `baseline ${baseline}, during ${during}, after ${after}`).toBeLessThan(5 * MB);
  }, 180_000);
});

describe('2025 sessions', () => {
  const runtime: AgentRuntime = {
    ready: async () => {},
    hasAgent: () => true,
    listTools: () => [],
    callTool: async () => ({ content: [] }),
    instructions: () => '',
  };
  const initialize = () =>
    new Request('http://127.0.0.1:4484/mcp', {
      method: 'POST',
      headers: { host: '127.0.0.1:4484', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
      }),
    });

  it(`keep at most ${MAX_LEGACY_SESSIONS} live, so 2,000 more bare initialize requests leave memory bounded`, async () => {
    const clock = { now: 0 };
    const endpoint = new AgentEndpoint('flood', runtime, silentLogger, () => clock.now);
    for (let i = 0; i < 300; i++) expect((await endpoint.handle(initialize())).status).toBe(200);
    const baseline = held();
    for (let i = 0; i < 2_000; i++) await endpoint.handle(initialize());
    expect(endpoint.liveSessions).toBe(MAX_LEGACY_SESSIONS);
    const after = held();
    // Measured: without the cap these 2,000 sessions held +15 MB; with it, +2.6 MB.
    expect(after - baseline, `baseline ${baseline}, after ${after}`).toBeLessThan(8 * MB);
    await endpoint.close();
  }, 120_000);

  it('close after minutes idle, not hours', async () => {
    const clock = { now: 0 };
    const endpoint = new AgentEndpoint('idle', runtime, silentLogger, () => clock.now);
    for (let i = 0; i < 10; i++) await endpoint.handle(initialize());
    expect(LEGACY_SESSION_IDLE_MS).toBeLessThanOrEqual(60 * 60 * 1000);
    clock.now = LEGACY_SESSION_IDLE_MS - 1;
    endpoint.sweepIdleSessions();
    expect(endpoint.liveSessions).toBe(10);
    clock.now = LEGACY_SESSION_IDLE_MS + 1;
    endpoint.sweepIdleSessions();
    expect(endpoint.liveSessions).toBe(0);
    await endpoint.close();
  });
});

describe('request bodies stalled one byte short', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ upstream: { builtin: 'demo' } });
  });
  afterAll(() => t?.stop());

  it('hold at most the body budget while they stall, and nothing once their clients leave', async () => {
    const port = Number(new URL(t.url).port);
    const DECLARED = 4_193_304;
    const body = Buffer.alloc(DECLARED - 1, 0x20);
    const flood = async (n: number) => {
      const sockets: Socket[] = [];
      const sent: Array<Promise<void>> = [];
      for (let i = 0; i < n; i++) {
        const s = connect(port, '127.0.0.1');
        s.on('error', () => {});
        sockets.push(s);
        s.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${DECLARED}\r\n\r\n`);
        sent.push(
          new Promise<void>((resolve) => {
            s.write(body, () => resolve());
            s.once('close', () => resolve());
          }),
        );
      }
      await Promise.all(sent);
      return sockets;
    };
    // A first, small flood: whatever is built once (parsers, buffers' pools) is not counted as held.
    for (const s of await flood(2)) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const baseline = held();
    const sockets = await flood(24);
    await expect.poll(() => held() - baseline, { timeout: 30_000 }).toBeGreaterThan(BODY_BUDGET_BYTES / 2);
    const during = held();
    // 24 × 4 MB unbounded would hold ~100 MB; the budget holds 32 MB of bodies (both ends of every
    // socket live in this process, so more shows: 51 MB measured), and all of it goes.
    expect(during - baseline, `baseline ${baseline}, during ${during}`).toBeLessThan(0.75 * 24 * DECLARED);
    for (const s of sockets) s.destroy();
    let after = 0;
    await expect
      .poll(() => (after = held()) - baseline, { timeout: 30_000, message: `baseline ${baseline}, during ${during}` })
      .toBeLessThan(4 * MB);
    console.log(
      `in-process body flood of 24: held baseline ${(baseline / MB).toFixed(1)} MB, during +${((during - baseline) / MB).toFixed(1)} MB, after +${((after - baseline) / MB).toFixed(1)} MB`,
    );
  }, 120_000);
});
