// A long answer outlives the listener's timeouts. Node's headersTimeout and requestTimeout cover
// receiving a request, not answering it; the idle and keep-alive timers are off while a request is in
// flight. With every timeout made short (100–500 ms), a tools/call whose upstream answers only after
// each of them has demonstrably fired on another connection (a stalled head, a stalled body, an idle
// socket) still gets its answer, in a 2025 session (its GET event stream stays open too) and in a
// stateless 2026 call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import type { CallOptions } from '../../src-main/core/upstream/types.js';
import { TwinUpstream, twinTool } from '../helpers/twins.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';
import { withDeadline } from '../helpers/wait.js';

const TIMES = { headersMs: 200, requestMs: 400, keepAliveMs: 200, idleSocketMs: 500, checkMs: 100 };

/** An upstream whose `slow` tool answers only when the test lets it. */
class GatedUpstream extends TwinUpstream {
  private waiting: Array<() => void> = [];
  started = 0;
  override async callTool(name: string, args: Record<string, unknown> | undefined, opts: CallOptions): Promise<CallToolResult> {
    this.started++;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.callTool(name, args, opts);
  }
  release(): void {
    this.waiting.splice(0).forEach((f) => f());
  }
}

let app: App;
let url: string;
const twin = new GatedUpstream('v', [twinTool('slow')]);
beforeAll(async () => {
  const stateDir = tempDir();
  const config = validateConfig(
    {
      stateDir,
      listen: { host: '127.0.0.1', port: 0 },
      upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } },
      pins: ['v__slow'],
      agents: [{ id: 'default', approvals: 'allow' }],
    },
    stateDir,
  );
  app = createApp({ config, clock: systemClock, log: new MemoryLogger(), connect: () => twin, edgeTimes: TIMES });
  url = (await app.start()).url;
  await app.router.ready();
});
afterAll(async () => {
  twin.release();
  await app?.stop();
});

/** Resolves with what the server wrote once it closed the connection. */
function closedBy(socket: Socket, what: string): Promise<string> {
  let got = '';
  socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
  socket.on('error', () => {});
  return withDeadline(new Promise<string>((resolve) => socket.once('close', () => resolve(got))), what);
}
function raw(first: string): Socket {
  const port = Number(new URL(url).port);
  const s = connect({ port, host: '127.0.0.1' });
  if (first) s.write(first.replaceAll('PORT', String(port)));
  return s;
}
/** Every one of the listener's timers fires on other connections while the call waits. */
async function everyTimeoutFires(): Promise<void> {
  // The idle socket is closed by whichever timer is first (Node's head timer counts from the connection).
  const [, head, body] = await Promise.all([
    closedBy(raw(''), 'an idle socket to be closed'),
    closedBy(raw('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:PORT\r\n'), 'a stalled request head to be closed'),
    closedBy(
      raw('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:PORT\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{'),
      'a stalled body to be closed',
    ),
  ]);
  expect(head).toMatch(/^HTTP\/1\.1 408/);
  expect(body).toMatch(/^HTTP\/1\.1 408/);
}

describe('a call that takes longer than every listener timeout', () => {
  for (const [era, mode] of [
    ['2025 session', 'legacy'],
    ['2026 stateless', 'auto'],
  ] as const) {
    it(`gets its answer (${era})`, async () => {
      const c: TestClient = await connectClient(`${url}/mcp`, mode);
      try {
        const before = twin.started;
        const call = c.client.callTool({ name: 'v__slow', arguments: {} });
        await withDeadline(
          (async () => {
            while (twin.started === before) await new Promise((r) => setTimeout(r, 20));
          })(),
          'the call to reach the upstream',
        );
        await everyTimeoutFires();
        twin.release();
        expect(textOf(await withDeadline(call, 'the long call to answer'))).toBe('v:slow');
        // The client's connections outlived the timers too: a second call on the same client works.
        const again = c.client.callTool({ name: 'v__slow', arguments: {} });
        await withDeadline(
          (async () => {
            while (twin.started === before + 1) await new Promise((r) => setTimeout(r, 20));
          })(),
          'the second call to reach the upstream',
        );
        twin.release();
        expect(textOf(await withDeadline(again, 'the second call to answer'))).toBe('v:slow');
      } finally {
        await c.close();
      }
    }, 60_000);
  }
});
