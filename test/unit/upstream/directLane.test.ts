// The direct lane to a 2025-era stdio upstream: what the SDK client does for a request, done on the
// transport — the request on the wire, the answer or its error, a timeout, an abort, a closed connection.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as sdk from '@modelcontextprotocol/client';
import { InMemoryTransport, ProtocolError, SdkError, SdkErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { DirectLane, sharedRequestIds } from '../../../src-main/core/upstream/directLane.js';
import { withDeadline } from '../../helpers/wait.js';

type Sent = JSONRPCMessage & { id?: unknown; method?: string; params?: Record<string, unknown> };

/** A lane on one end of a linked pair; the test plays the upstream on the other, `passed` is what reached the SDK. */
async function lane() {
  const [near, far] = InMemoryTransport.createLinkedPair();
  const got: Sent[] = [];
  const passed: Sent[] = [];
  /** How many of the lane's calls were still in flight when the handler that was there before ran. */
  const inFlightAtClose: number[] = [];
  far.onmessage = (m) => void got.push(m as Sent);
  near.onmessage = (m) => void passed.push(m as Sent);
  near.onclose = () => void inFlightAtClose.push(l.inFlight);
  await far.start();
  await near.start();
  let next = 0;
  const l = new DirectLane(near, sdk, () => next++);
  const answer = (id: unknown, body: Record<string, unknown>) => far.send({ jsonrpc: '2.0', id, ...body } as JSONRPCMessage);
  return { l, near, far, got, passed, answer, inFlightAtClose };
}

const tick = () => new Promise((r) => setImmediate(r));

afterEach(() => {
  vi.useRealTimers();
});

describe('DirectLane', () => {
  it("sends the request under the SDK client's next id and answers with the result, without a resultType the upstream added", async () => {
    const { l, got, answer, passed } = await lane();
    const call = l.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }, { timeoutMs: 60_000 });
    expect(got).toEqual([{ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }]);
    await answer(0, { result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' } });
    await expect(call).resolves.toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(passed).toEqual([]);
    expect(l.inFlight).toBe(0);
  });

  it("passes on everything that is not one of its answers: the SDK's own answers, notifications, the upstream's requests", async () => {
    const { l, answer, passed, far } = await lane();
    const call = l.request('tools/call', { name: 'a' }, { timeoutMs: 60_000 });
    await answer(7, { result: {} });
    await far.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    await far.send({ jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: {} } as JSONRPCMessage);
    expect(passed.map((m) => m.id ?? m.method)).toEqual([7, 'notifications/message', 0]);
    // Its id read as the SDK reads one: "0" is 0.
    await answer('0', { result: { ok: true } });
    await expect(call).resolves.toEqual({ ok: true });
  });

  it('leaves an answer the SDK would drop as malformed to the SDK, and the call waits on', async () => {
    const { l, answer, passed } = await lane();
    const call = l.request('tools/call', { name: 'a' }, { timeoutMs: 60_000 });
    const malformed = [
      { result: 5 },
      { result: 'ab' },
      { result: null },
      { result: [1] },
      {},
      { error: 'boom' },
      { error: {} },
      { error: { code: 1.5, message: 'x' } },
      { result: {}, error: { code: 1, message: 'x' } },
      { error: { code: 2 ** 60, message: 'x' } },
      { result: { _meta: null } },
      { result: { _meta: 5 } },
      { result: {}, extra: 1 },
    ];
    for (const body of malformed) await answer(0, body);
    await tick();
    expect(passed).toHaveLength(malformed.length);
    expect(l.inFlight).toBe(1);
    await answer(0, { result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
  });

  it("turns an error answer into the SDK's ProtocolError, with its code and data", async () => {
    const { l, answer } = await lane();
    const call = l.request('tools/call', { name: 'fail' }, { timeoutMs: 60_000 });
    await answer(0, { error: { code: -32050, message: 'the backend refused', data: { why: 'test' } } });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ code: -32050, message: 'the backend refused', data: { why: 'test' } });
  });

  it('times out as the SDK does: a RequestTimeout error, and the upstream told to cancel', async () => {
    vi.useFakeTimers();
    const { l, got, answer, passed } = await lane();
    const call = l.request('tools/call', { name: 'slow' }, { timeoutMs: 5_000 });
    const settled = call.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(l.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const err = await settled;
    expect(err).toBeInstanceOf(SdkError);
    expect(err).toMatchObject({ code: SdkErrorCode.RequestTimeout, message: 'Request timed out', data: { timeout: 5_000 } });
    expect(got[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 0 } });
    // An answer after that is not the lane's any more: it goes on to the SDK, which ignores an unknown id.
    await answer(0, { result: {} });
    expect(passed.map((m) => m.id)).toEqual([0]);
  });

  it('gives up on an aborted call at once and tells the upstream, with the reason', async () => {
    const { l, got } = await lane();
    const abort = new AbortController();
    const call = l.request('tools/call', { name: 'slow' }, { timeoutMs: 60_000, signal: abort.signal });
    abort.abort('the client went away');
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SdkError);
    expect((err as Error).message).toMatch(/the client went away/);
    expect(got[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 0, reason: 'the client went away' },
    });
    expect(l.inFlight).toBe(0);
  });

  it('sends nothing for a call whose signal was aborted before it started', async () => {
    const { l, got } = await lane();
    const abort = new AbortController();
    abort.abort(new SdkError(SdkErrorCode.RequestTimeout, 'too late'));
    await expect(l.request('tools/call', { name: 'x' }, { timeoutMs: 60_000, signal: abort.signal })).rejects.toThrow('too late');
    expect(got).toEqual([]);
  });

  it('fails every call in flight when the connection closes, after the handler that was there before, and takes no more', async () => {
    const { l, near, got, inFlightAtClose } = await lane();
    const calls = [1, 2].map((i) => l.request('tools/call', { name: `t${i}` }, { timeoutMs: 60_000 }).catch((e: unknown) => e));
    await near.close();
    for (const err of await withDeadline(Promise.all(calls), 'the calls in flight to fail'))
      expect(err).toMatchObject({ code: SdkErrorCode.ConnectionClosed, message: 'Connection closed' });
    expect(inFlightAtClose).toEqual([2]);
    expect(l.inFlight).toBe(0);
    await expect(l.request('tools/call', { name: 't3' }, { timeoutMs: 60_000 })).rejects.toThrow('Not connected');
    expect(got).toHaveLength(2);
  });

  it('fails a call whose request could not be written', async () => {
    const { l, near } = await lane();
    near.send = () => Promise.reject(new Error('write EPIPE'));
    await expect(l.request('tools/call', { name: 'x' }, { timeoutMs: 60_000 })).rejects.toThrow('write EPIPE');
    expect(l.inFlight).toBe(0);
  });

  it("works beside a connected SDK client, numbering its calls in the client's own sequence", async () => {
    const [near, far] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 'up', version: '1' }, { capabilities: { tools: {} } });
    const seen: number[] = [];
    const idOf = (ctx: unknown) => Number((ctx as { mcpReq: { id: unknown } }).mcpReq.id);
    server.setRequestHandler(
      'tools/list',
      async (_req, ctx) => (seen.push(idOf(ctx)), { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
    );
    server.setRequestHandler(
      'tools/call',
      async (req, ctx) => (seen.push(idOf(ctx)), { content: [{ type: 'text', text: `called ${req.params.name}` }] }),
    );
    await server.connect(far);
    const client = new sdk.Client({ name: 'mws', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(near);
    const ids = sharedRequestIds(client);
    // Undefined would mean this SDK has no such counter: no upstream would get a lane.
    expect(ids).toBeTypeOf('function');
    const l = new DirectLane(near, sdk, ids!);
    const answered = await Promise.all([
      client.listTools(),
      l.request('tools/call', { name: 'echo' }, { timeoutMs: 60_000 }),
      client.callTool({ name: 'echo' }),
      l.request('tools/call', { name: 'echo' }, { timeoutMs: 60_000 }),
    ]);
    expect(answered[1]).toEqual({ content: [{ type: 'text', text: 'called echo' }] });
    expect(answered[3]).toEqual(answered[1]);
    // One sequence: no id twice, none skipped. A client numbering its requests elsewhere would repeat the lane's.
    const sorted = [...seen].sort((a, b) => a - b);
    expect(new Set(seen).size).toBe(seen.length);
    expect(sorted.at(-1)! - sorted[0]! + 1).toBe(seen.length);
    await client.close();
    await tick();
  });
});
