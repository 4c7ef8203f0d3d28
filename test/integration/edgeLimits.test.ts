// The listener's connection caps with every connection busy (a request in flight that has not been
// answered): the one past a cap gets a 503 with a sentence, the process lives, the log says so once;
// another remote address still gets in while one address is at its own cap. Plus the pure parts: the
// body budget and the rate-limited cap log, on an injected clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { listen, type Listener } from '../../src-main/core/http/listener.js';
import { text } from '../../src-main/core/http/answers.js';
import { BodyBudget, CapLog, MAX_CONNECTIONS_PER_ADDRESS, MAX_OPEN_CONNECTIONS } from '../../src-main/core/http/edgeLimits.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { withDeadline } from '../helpers/wait.js';
import { startApp, type TestApp } from '../helpers/app.js';

describe('the body budget and the cap log', () => {
  it('reserves declared bytes up to the limit, releases once, and says when a flood has drained', () => {
    let drained = 0;
    const b = new BodyBudget(10, () => drained++);
    const r1 = b.take(6)!;
    expect(b.take(5)).toBeUndefined();
    const r2 = b.take(4)!;
    expect(b.heldBytes).toBe(10);
    r1();
    r1();
    expect(b.heldBytes).toBe(4);
    r2();
    expect(b.heldBytes).toBe(0);
    expect(drained).toBe(1);
  });

  it('writes one line per kind per interval, then counts the ones it kept quiet', () => {
    const log = new MemoryLogger();
    const t = { now: 0 };
    const caps = new CapLog(log, () => t.now, 10_000);
    for (let i = 0; i < 50; i++) caps.hit('a', 'cap a hit');
    caps.hit('b', 'cap b hit');
    t.now = 10_000;
    caps.hit('a', 'cap a hit');
    expect(log.lines).toEqual(['warn: cap a hit', 'warn: cap b hit', 'warn: cap a hit (49 more since the last such line)']);
  });
});

describe('connections past the caps, all busy', () => {
  let listener: Listener;
  const log = new MemoryLogger();
  const hanging: Array<() => void> = [];
  beforeAll(async () => {
    // Every request to /hang waits until the test ends: its connection stays busy, never idle.
    const hang = () => new Promise<Response>((resolve) => hanging.push(() => resolve(text(200, 'done'))));
    listener = await listen('127.0.0.1', 0, { extra: { '/hang': hang } }, undefined, { log });
  });
  afterAll(async () => {
    hanging.forEach((f) => f());
    await listener?.close();
  });

  const open = (localAddress = '127.0.0.1') =>
    new Promise<Socket>((resolve, reject) => {
      const s = connect({ port: listener.port, host: '127.0.0.1', localAddress }, () => resolve(s));
      s.once('error', reject);
    });
  const busy = async (localAddress?: string) => {
    const s = await open(localAddress);
    s.on('error', () => {});
    s.write(`GET /hang HTTP/1.1\r\nhost: 127.0.0.1:${listener.port}\r\n\r\n`);
    return s;
  };
  const firstAnswer = (s: Socket) =>
    withDeadline(
      new Promise<string>((resolve) => {
        let got = '';
        s.on('data', (d: Buffer) => (got += d.toString()));
        s.once('close', () => resolve(got));
        s.once('end', () => resolve(got));
      }),
      'an answer on a connection past the cap',
    );
  /** Until the listener has seen every request (each is busy only once its head is read). */
  const seen = (n: number) =>
    withDeadline(
      (async () => {
        while (hanging.length < n) await new Promise((r) => setTimeout(r, 20));
      })(),
      `${n} requests to be in flight`,
    );

  it('answers 503 past the per-address cap, lets another address in, then 503 past the overall cap, and logs it once', async () => {
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS_PER_ADDRESS; i++) sockets.push(await busy());
      await seen(MAX_CONNECTIONS_PER_ADDRESS);
      const over = await busy();
      sockets.push(over);
      const answer = await firstAnswer(over);
      expect(answer).toMatch(/^HTTP\/1\.1 503/);
      expect(answer).toMatch(/too many open connections/);
      // Another loopback address is not held back by the first one's cap.
      for (let i = MAX_CONNECTIONS_PER_ADDRESS; i < MAX_OPEN_CONNECTIONS; i++) sockets.push(await busy('127.0.0.2'));
      await seen(MAX_OPEN_CONNECTIONS);
      const overAll = await busy('127.0.0.3');
      sockets.push(overAll);
      expect(await firstAnswer(overAll)).toMatch(/^HTTP\/1\.1 503/);
      const lines = log.lines.filter((l) => /refused a connection/.test(l));
      expect(lines.length, log.lines.join('\n')).toBe(1);
      expect(lines[0]).toMatch(/connections from 127\.0\.0\.1 are open and busy/);
    } finally {
      sockets.forEach((s) => s.destroy());
    }
  }, 120_000);
});

// Chunked request bodies (fetch with a ReadableStream body, Go's client with an io.Pipe, `curl -T -`)
// were refused with 411 by the first cut of the budget; main read them. They are read again, each
// holding a whole body's worth (4 MB) of the budget while it arrives, and each reader stops at 4 MB.
describe('chunked request bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ agents: [{ id: 'default', approvals: 'allow' }] });
  });
  afterAll(async () => t?.stop());

  const streamed = (text: string, parts = 3) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        const step = Math.ceil(text.length / parts);
        for (let i = 0; i < text.length; i += step) c.enqueue(new TextEncoder().encode(text.slice(i, i + step)));
        c.close();
      },
    });
  const post = (path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'chunked', version: '1' } },
  });

  it('answers an MCP initialize and a ping sent chunked (fetch with a ReadableStream body)', async () => {
    const res = await post('/mcp', streamed(initialize));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.text()).toMatch(/"serverInfo"/);
    const ping = await post('/mcp', streamed(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })), {
      'mcp-protocol-version': '2025-06-18',
      'mcp-session-id': res.headers.get('mcp-session-id') ?? '',
    });
    expect(ping.status, await ping.clone().text()).toBe(200);
  });

  it('stops reading a chunked body past 4 MB with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4 * 1024 * 1024 + 10) } });
    const res = await post('/mcp', streamed(big, 64)).catch((err: Error) => err);
    // Either the 413 arrives, or the server cut the upload (the client then sees the closed socket).
    if (res instanceof Error) expect(res.message).toMatch(/fetch failed|socket|closed|reset/i);
    else expect(res.status).toBe(413);
  });
});

describe('a stalled chunked body holds the budget like a declared one', () => {
  it('takes a whole body of the budget while it arrives, and gives it back when it ends', async () => {
    const budget = new BodyBudget(6 * 1024 * 1024);
    const seenBody: string[] = [];
    const echo = async (r: Request): Promise<Response> => (seenBody.push(await r.text()), text(200, 'ok'));
    const l = await listen('127.0.0.1', 0, { extra: { '/echo': echo } }, undefined, { bodyBudget: budget });
    const s = connect({ port: l.port, host: '127.0.0.1' });
    try {
      s.on('error', () => {});
      s.write(`POST /echo HTTP/1.1\r\nhost: 127.0.0.1:${l.port}\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n`);
      await withDeadline(
        (async () => {
          while (budget.heldBytes === 0) await new Promise((r) => setTimeout(r, 20));
        })(),
        'the chunked body to hold the budget',
      );
      expect(budget.heldBytes).toBe(4 * 1024 * 1024);
      // Past the budget a second body is refused while the first still arrives.
      const second = await fetch(`${l.url}/echo`, { method: 'POST', body: 'x'.repeat(3 * 1024 * 1024) });
      expect(second.status).toBe(503);
      const answered = new Promise<string>((resolve) => s.on('data', (d: Buffer) => resolve(d.toString())));
      s.write('0\r\n\r\n');
      expect(await withDeadline(answered, 'the chunked request to be answered')).toMatch(/^HTTP\/1\.1 200/);
      expect(seenBody).toEqual(['abc']);
      await withDeadline(
        (async () => {
          while (budget.heldBytes !== 0) await new Promise((r) => setTimeout(r, 20));
        })(),
        'the budget to be given back',
      );
    } finally {
      s.destroy();
      await l.close();
    }
  });
});

describe('making room at the cap', () => {
  it('closes sockets that never sent a request before a kept-alive client that did, however old its connection', async () => {
    const l = await listen('127.0.0.1', 0, { extra: { '/x': async () => text(200, 'ok') } }, undefined, { log: new MemoryLogger() });
    const sockets: Socket[] = [];
    try {
      // The client's connection is the oldest one: it has answered a request and waits, kept alive.
      const client = connect({ port: l.port, host: '127.0.0.1' });
      client.on('error', () => {});
      let got = '';
      client.on('data', (d: Buffer) => (got += d.toString()));
      const ask = async (n: number) => {
        client.write(`GET /x HTTP/1.1\r\nhost: 127.0.0.1:${l.port}\r\n\r\n`);
        await withDeadline(
          (async () => {
            while ((got.match(/HTTP\/1\.1 200/g) ?? []).length < n) await new Promise((r) => setTimeout(r, 20));
          })(),
          `answer ${n} on the kept-alive connection`,
        );
      };
      await ask(1);
      // A flood of connections that send nothing, past the overall cap (from other addresses, so the per-address cap is not what acts).
      let closedByServer = 0;
      for (let i = 0; i < MAX_OPEN_CONNECTIONS + 20; i++) {
        const s = connect({ port: l.port, host: '127.0.0.1', localAddress: `127.0.1.${1 + (i % 200)}` });
        s.on('error', () => {});
        s.once('close', () => closedByServer++);
        sockets.push(s);
        await new Promise<void>((resolve) => (s.once('connect', () => resolve()), s.once('error', () => resolve())));
      }
      // The listener made room 20 times (it closed 20 sockets, the client's or the flood's).
      await withDeadline(
        (async () => {
          while (closedByServer + (client.destroyed ? 1 : 0) < 20) await new Promise((r) => setTimeout(r, 20));
        })(),
        'the listener to make room 20 times',
      );
      expect(client.destroyed).toBe(false);
      await ask(2);
    } finally {
      sockets.forEach((s) => s.destroy());
      await l.close();
    }
  }, 60_000);
});

describe('stalled uploads at the cap', () => {
  it('a newcomer gets in past 512 connections each stalled in a one-byte body', async () => {
    // Each stalled upload holds its 2 declared bytes of the budget once its head is read: how the test knows all are in flight.
    const budget = new BodyBudget();
    const l = await listen('127.0.0.1', 0, { extra: { '/x': async () => text(200, 'ok') } }, undefined, {
      log: new MemoryLogger(),
      bodyBudget: budget,
    });
    const sockets: Socket[] = [];
    try {
      let closedByServer = 0;
      for (let i = 0; i < MAX_OPEN_CONNECTIONS; i++) {
        const s = connect({ port: l.port, host: '127.0.0.1', localAddress: `127.0.2.${1 + (i % 200)}` });
        s.on('error', () => {});
        s.once('close', () => closedByServer++);
        sockets.push(s);
        s.write(`POST /x HTTP/1.1\r\nhost: 127.0.0.1:${l.port}\r\ncontent-length: 2\r\n\r\n{`);
      }
      await withDeadline(
        (async () => {
          while (budget.heldBytes < 2 * MAX_OPEN_CONNECTIONS) await new Promise((r) => setTimeout(r, 20));
        })(),
        'every stalled upload to be in flight',
      );
      const res = await fetch(`${l.url}/x`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('ok\n');
      await withDeadline(
        (async () => {
          while (closedByServer < 1) await new Promise((r) => setTimeout(r, 20));
        })(),
        'one stalled upload to be closed',
      );
    } finally {
      sockets.forEach((s) => s.destroy());
      await l.close();
    }
  }, 60_000);
});

describe('what the listener logs of a request', () => {
  // The window's CSRF token now gets its session cookie back (POST /ui/_session), so it is a
  // credential: the event stream's `?csrf=` must not reach the log when a request fails inside.
  it("does not write the event stream's ?csrf= token when a request fails inside", async () => {
    const log = new MemoryLogger();
    const l = await listen('127.0.0.1', 0, { events: () => Promise.reject(new Error('boom')) }, undefined, { log });
    try {
      const res = await fetch(`${l.url}/control/events?csrf=SECRETCSRF123&x=1`);
      expect(res.status).toBeGreaterThanOrEqual(500);
      await withDeadline(
        (async () => {
          while (!log.lines.some((x) => /failed inside/.test(x))) await new Promise((r) => setTimeout(r, 20));
        })(),
        'the failure to be logged',
      );
      const lines = log.lines.join('\n');
      expect(lines).toMatch(/failed inside the proxy/);
      expect(lines).not.toMatch(/SECRETCSRF123/);
    } finally {
      await l.close();
    }
  });
});

describe('a body of too many values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ upstreams: {} });
  });
  afterAll(async () => t.stop());

  const post = (body: string) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body,
    });

  it('refuses 300,000 argument keys unread with a sentence, and the next request is answered', async () => {
    const args = `{${Array.from({ length: 300_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
    const res = await withDeadline(
      post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_tools","arguments":${args}}}`),
      'the flood of keys was not answered',
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/more than 50,000 JSON values/);
    const ping = await post('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect(ping.status).toBeLessThan(500);
  });

  it('bounds a deep nest and a content type in capitals too (both were parsed whole before)', async () => {
    const deep = `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    const nested = await withDeadline(post(deep), 'the deep nest was not answered');
    expect(nested.status).toBe(413);
    const args = `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
    const shouted = await withDeadline(
      fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'Application/JSON; charset=utf-8',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_tools","arguments":${args}}}`,
      }),
      'the capitalised request was not answered',
    );
    expect(shouted.status).toBe(413);
  });

  it('still takes a 3 MB string argument (few values, many bytes)', async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'search_tools', arguments: { query: 'a:b,c '.repeat(500_000) } },
      }),
    );
    expect(res.status).not.toBe(413);
  });
});
