// The listener's connection caps with every connection busy (a request in flight that has not been
// answered): the one past a cap gets a 503 with a sentence, the process lives, the log says so once;
// another remote address still gets in while one address is at its own cap. Plus the pure parts: the
// body budget and the rate-limited cap log, on an injected clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { listen, text, type Listener } from '../../src-main/core/proxy/listener.js';
import { BodyBudget, CapLog, MAX_CONNECTIONS_PER_ADDRESS, MAX_OPEN_CONNECTIONS } from '../../src-main/core/proxy/edgeLimits.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { withDeadline } from '../helpers/wait.js';

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
    const hang = (_r: Request, url: URL) => (url.pathname === '/hang' ? new Promise<Response>((resolve) => hanging.push(() => resolve(text(200, 'done')))) : undefined);
    listener = await listen('127.0.0.1', 0, [hang], undefined, { log });
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
  const seen = (n: number) => withDeadline((async () => { while (hanging.length < n) await new Promise((r) => setTimeout(r, 20)); })(), `${n} requests to be in flight`);

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
