// The bounded fetch an HTTP upstream reads through (boundedFetch.ts), against fetch twins: sizes, JSON
// depth, SSE events (CR, LF, CRLF), the SSE event deadline on an injected clock, the sign-in deadline.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BodyBoundError,
  MAX_JSON_DEPTH,
  SIGN_IN_DEADLINE_MS,
  SIGN_IN_MAX_BYTES,
  SSE_EVENT_DEADLINE_MS,
  bodyScanner,
  boundedFetch,
  isSignInRequest,
} from '../../../src-main/core/upstream/boundedFetch.js';

const enc = (s: string) => new TextEncoder().encode(s);
const SERVER = 'http://127.0.0.1:9/mcp';

/** A fetch twin answering every request with `chunks` as its body. */
function twin(chunks: Array<string | Uint8Array>, type = 'application/json'): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const ch of chunks) c.enqueue(typeof ch === 'string' ? enc(ch) : ch);
          c.close();
        },
      }),
      { status: 200, headers: { 'content-type': type } },
    );
}

afterEach(() => vi.useRealTimers());

describe('which requests are sign-in requests', () => {
  it('is anything off the server origin and its well-known documents', () => {
    const s = new URL(SERVER);
    expect(isSignInRequest(new URL('http://127.0.0.1:9/mcp'), s)).toBe(false);
    expect(isSignInRequest(new URL('http://127.0.0.1:9/messages?x=1'), s)).toBe(false);
    expect(isSignInRequest(new URL('http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp'), s)).toBe(true);
    expect(isSignInRequest(new URL('http://127.0.0.1:10/token'), s)).toBe(true);
  });
});

describe('a bounded fetch', () => {
  it('passes an answer within its bounds as it is', async () => {
    const breaches: string[] = [];
    const f = boundedFetch(twin(['{"a":[1,', '2]}']), { serverUrl: SERVER, maxResultBytes: 1024, onBreach: (s) => breaches.push(s) });
    expect(await (await f(SERVER)).json()).toEqual({ a: [1, 2] });
    expect(breaches).toEqual([]);
  });

  it("reads a large answer's text piece by piece, never joined as one block of bytes (pagedBytes.ts), a BOM and split characters as fetch reads them", async () => {
    const text = '\uFEFF' + JSON.stringify({ tools: Array.from({ length: 20_000 }, (_, i) => ({ name: `t${i}`, d: 'é☕😀 x' })) });
    const bytes = enc(text);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 65_531) }, (_, i) => bytes.subarray(i * 65_531, (i + 1) * 65_531));
    const f = boundedFetch(twin(pieces), { serverUrl: SERVER, maxResultBytes: 1 << 30, onBreach: () => {} });
    const asFetchReadsIt = await new Response(bytes).text();
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      expect(await (await f(SERVER)).text()).toBe(asFetchReadsIt);
      expect(await (await f(SERVER)).json()).toEqual(JSON.parse(text.slice(1)));
      expect(concat.mock.results.filter((r) => (r.value as Buffer).length > 64 * 1024)).toEqual([]);
    } finally {
      concat.mockRestore();
    }
  });

  it('refuses to read a body twice, as fetch does', async () => {
    const f = boundedFetch(twin(['{"a":1}']), { serverUrl: SERVER, maxResultBytes: 1024, onBreach: () => {} });
    const res = await f(SERVER);
    expect(await res.json()).toEqual({ a: 1 });
    await expect(res.text()).rejects.toBeInstanceOf(TypeError);
    const cancelled = await f(SERVER);
    await cancelled.body!.cancel();
    await expect(cancelled.text()).rejects.toBeInstanceOf(TypeError);
  });

  it('stops a sign-in document past 1 MiB with a sentence, and tells the log', async () => {
    const breaches: string[] = [];
    const big = new Uint8Array(64 * 1024).fill(0x61);
    const f = boundedFetch(twin(Array.from({ length: 40 }, () => big)), {
      serverUrl: SERVER,
      maxResultBytes: 1024 * 1024 * 1024,
      onBreach: (s) => breaches.push(s),
    });
    const err = await (await f('http://127.0.0.1:9/.well-known/oauth-authorization-server')).json().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyBoundError);
    expect(breaches).toEqual([
      expect.stringMatching(
        /^The sign-in server at http:\/\/127\.0\.0\.1:9\/\.well-known\/oauth-authorization-server sent more than 1 MiB/,
      ),
    ]);
    expect(SIGN_IN_MAX_BYTES).toBe(1024 * 1024);
  });

  it('stops an answer from the server past maxResultBytes, naming the setting', async () => {
    const breaches: string[] = [];
    const f = boundedFetch(twin(['x'.repeat(3000)]), { serverUrl: SERVER, maxResultBytes: 2048, onBreach: (s) => breaches.push(s) });
    await expect((await f(SERVER)).text()).rejects.toThrow(/sent more than 2 KiB.*maxResultBytes/);
    expect(breaches).toHaveLength(1);
  });

  it('stops JSON nested deeper than the bound, and counts no bracket inside a string', async () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1);
    const f = boundedFetch(twin([deep]), { serverUrl: SERVER, maxResultBytes: 1 << 20, onBreach: () => {} });
    await expect((await f(SERVER)).json()).rejects.toThrow(/nested deeper than 512 levels/);
    const inString = `{"a":"${'['.repeat(5000)}\\"${'{'.repeat(5000)}"}`;
    const g = boundedFetch(twin([inString]), { serverUrl: SERVER, maxResultBytes: 1 << 20, onBreach: () => {} });
    expect(((await (await g(SERVER)).json()) as { a: string }).a).toHaveLength(10_001);
    const atBound = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    const h = boundedFetch(twin([atBound]), { serverUrl: SERVER, maxResultBytes: 1 << 20, onBreach: () => {} });
    expect(await (await h(SERVER)).json()).toBeInstanceOf(Array);
  });

  it('stops a sign-in server that never answers at its deadline, with a sentence', async () => {
    vi.useFakeTimers();
    const breaches: string[] = [];
    const stalled: typeof fetch = (_input, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    const f = boundedFetch(stalled, { serverUrl: SERVER, maxResultBytes: 1 << 20, onBreach: (s) => breaches.push(s) });
    const p = f('http://127.0.0.1:10/register', { method: 'POST' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(SIGN_IN_DEADLINE_MS + 1);
    expect(await p).toBeInstanceOf(BodyBoundError);
    expect(breaches).toEqual([expect.stringMatching(/did not answer within 30 s/)]);
  });
});

describe('a sign-in server that sends its headers, then trickles nothing more', () => {
  it('is stopped at the deadline while its body is read, with a sentence', async () => {
    vi.useFakeTimers();
    const breaches: string[] = [];
    const trickle: typeof fetch = async (_input, init) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(enc('{"issuer":"'));
            init?.signal?.addEventListener('abort', () => c.error(init.signal!.reason));
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const f = boundedFetch(trickle, { serverUrl: SERVER, maxResultBytes: 1 << 20, onBreach: (s) => breaches.push(s) });
    const res = await f('http://127.0.0.1:10/.well-known/oauth-authorization-server');
    const body = res.json().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(SIGN_IN_DEADLINE_MS + 1);
    expect(await body).toBeInstanceOf(BodyBoundError);
    expect(breaches).toEqual([expect.stringMatching(/did not answer within 30 s/)]);
  });
});

describe('the SSE scanner', () => {
  const sse = (max: number, now = () => 0) => bodyScanner({ kind: 'sse', maxBytes: max, what: 'The server', setting: '' }, now);

  it('bounds each event, not the stream: many small events pass, with LF, CR or CRLF', () => {
    const scan = sse(100);
    for (let i = 0; i < 1000; i++) expect(scan(enc(`data: {"n":${i}}\n\n`))).toBeUndefined();
    for (let i = 0; i < 1000; i++) expect(scan(enc(`data: {"n":${i}}\r\n\r\n`))).toBeUndefined();
    for (let i = 0; i < 1000; i++) expect(scan(enc(`data: {"n":${i}}\r\r`))).toBeUndefined();
  });

  it('stops one line without an end, and one event of many lines, past the bound', () => {
    const line = sse(100);
    expect(line(enc('data: ' + 'x'.repeat(90)))).toBeUndefined();
    expect(line(enc('x'.repeat(20)))).toMatch(/SSE event \(or line\) of more than 100 bytes/);
    const event = sse(100);
    for (let i = 0; i < 9; i++) expect(event(enc('data: xxxx\n'))).toBeUndefined();
    expect(event(enc('data: xxxx\n'))).toMatch(/SSE event/);
  });

  it('stops an event kept open past its deadline (injected clock), and lets a slow stream of whole events be', () => {
    let t = 0;
    const scan = sse(1 << 20, () => t);
    expect(scan(enc('data: x\n'))).toBeUndefined();
    t += SSE_EVENT_DEADLINE_MS + 1;
    expect(scan(enc('data: y\n'))).toMatch(/kept one SSE event open for more than 300 s/);
    const slow = sse(1 << 20, () => t);
    for (let i = 0; i < 10; i++) {
      t += SSE_EVENT_DEADLINE_MS;
      expect(slow(enc(': keep-alive\n\n'))).toBeUndefined();
    }
  });
});
