// Attacks on the edge against a real `mws serve` limited to 1,024 open files, as a stranger on
// loopback would run them, with no credential: Host headers no URL parser takes, a flood of request
// bodies stalled one byte short (RSS of the server before, during and after), half-open and idle
// sockets past every cap and past the file limit, and a slow-loris head. Counts are bounded so the
// file runs in well under a minute on two busy cores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { HEADERS_TIMEOUT_MS, IDLE_SOCKET_MS, MAX_OPEN_CONNECTIONS } from '../../src-main/core/http/edgeLimits.js';
import { built } from '../helpers/build.js';
import { deadPort, ROOT, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { rawRequest } from '../helpers/rawHttp.js';
import { until, WAIT_MS, withDeadline } from '../helpers/wait.js';

/** The file limit of the attack: more half-open sockets than the process may hold files. */
const FILE_LIMIT = 1024;
const MB = 1024 * 1024;

let serve: Running;
let base: string;
let port: number;
let api: ControlApi;

/** `mws serve` under `ulimit -n`, as a user with a low limit would run it. */
function spawnServe(cfg: string): Running {
  const proc = spawn(
    'bash',
    ['-c', `ulimit -n ${FILE_LIMIT} && exec "$0" "$@"`, process.execPath, built('mws'), 'serve', '--config', cfg],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    kill: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const hard = setTimeout(() => proc.kill('SIGKILL'), WAIT_MS);
        proc.once('exit', () => (clearTimeout(hard), resolve()));
        proc.kill('SIGTERM');
      }),
  };
}

beforeAll(async () => {
  const dir = tempDir('mws-edge-');
  const cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { demo: { builtin: 'demo' } },
      stateDir,
      listen: { port: await deadPort() },
      agents: [{ id: 'bot', token: 'bot-token-0123456789abcdef' }],
    }),
  );
  serve = spawnServe(cfg);
  base = await listeningBase(serve);
  port = Number(new URL(base).port);
  api = httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim(), 10_000);
});

afterAll(async () => {
  await serve?.kill();
});

async function alive(): Promise<void> {
  expect(serve.proc.exitCode, `mws serve exited; stderr:\n${serve.stderr()}`).toBeNull();
  expect((await api.status({})).toolboxSize).toBeGreaterThan(0);
}

/** Resident memory of the server process, from /proc. */
function rssBytes(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.proc.pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves when the server has closed `s` (or it failed), with what the server wrote first. */
function closedByServer(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString('latin1')));
    s.on('error', () => {});
    if (s.destroyed) return resolve(got);
    s.once('close', () => resolve(got));
  });
}

/** What each socket has been sent so far, read as it arrives. */
function received(s: Socket): { text: string } {
  const got = { text: '' };
  s.on('data', (d: Buffer) => (got.text += d.toString('latin1')));
  s.on('error', () => {});
  return got;
}

describe('Host headers no URL parser takes', () => {
  it('are refused with 403 like any foreign Host on every route, never 500', async () => {
    for (const host of ['127.0.0.256', `127.0.0.999:${port}`, `127.300.0.1:${port}`, `127.0.0.08:${port}`, `127.0.0.1.:${port}`]) {
      for (const path of ['/mcp', '/ui/', '/control/status', '/nothing', '/']) {
        const r = await rawRequest(base, 'POST', path, { host, 'content-type': 'application/json' }, '{}');
        expect(r.status, `${host} ${path}`).toBe(403);
        expect(r.body).toMatch(/Host header must name this proxy/);
      }
    }
    await alive();
  });
});

describe('a flood of request bodies stalled one byte short', () => {
  // The attack: 4,193,304 declared bytes, all but the last one sent; any path, no credential.
  const DECLARED = 4_193_304;
  const CONNECTIONS = Number(process.env.MWS_EDGE_FLOOD ?? 120);
  const body = Buffer.alloc(DECLARED - 1, 0x20);
  const paths = ['/control/status', '/mcp', '/mcp/bot', '/ui/', '/nothing'];
  const ROUNDS = Number(process.env.MWS_EDGE_ROUNDS ?? 2);
  /** A round's own deadlines: sending 60 s, the peak 1 s, the refusals 30 s, RSS coming back 30 s. */
  const ROUND_MS = 121_000;

  /** Answers that are a whole 503, its body as long as its content-length says: one read may end mid-answer. */
  const refusedOf = (answers: string[]) =>
    answers.filter((a) => {
      const end = a.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(a.slice(0, end));
      return a.startsWith('HTTP/1.1 503') && end > 0 && !!length && a.length - end - 4 >= Number(length[1]);
    });

  /** One round: every connection sends its head and all but the last byte; answers the peak RSS and what the server wrote. */
  async function flood(): Promise<{ peak: number; answers: string[]; sockets: Socket[] }> {
    const sockets: Socket[] = [];
    const got: Array<{ text: string }> = [];
    const sent: Array<Promise<void>> = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const s = await open();
      sockets.push(s);
      got.push(received(s));
      s.write(
        `POST ${paths[i % paths.length]} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${DECLARED}\r\n\r\n`,
      );
      // Settles when the bytes are with the kernel, or the server has refused and closed.
      sent.push(
        new Promise<void>((resolve) => {
          s.write(body, () => resolve());
          s.once('close', () => resolve());
        }),
      );
    }
    await withDeadline(Promise.all(sent), 'every flood connection to send its body or be refused', 60_000);
    // Bodies still being read reach the server a little later: the highest RSS of a short while.
    let peak = rssBytes();
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 100));
      peak = Math.max(peak, rssBytes());
    }
    // The budget holds 8 such bodies; the rest are refused as their heads are read, which a busy
    // server may do after the bodies are sent. (Waiting for each refused socket to close raced
    // the 2 s the server keeps it open after its 503.)
    // What each path was answered (first line), and whether its socket is closed: where they went.
    const summary = () => {
      const kinds = new Map<string, number>();
      got.forEach((g, i) => {
        const k = `${paths[i % paths.length]} ${g.text.split('\r\n')[0] || '(nothing)'}${sockets[i]!.destroyed ? ', closed' : ''}`;
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      });
      return [...kinds].map(([k, n]) => `${n}× ${k}`).join('; ');
    };
    await until(
      () => (refusedOf(got.map((g) => g.text)).length > CONNECTIONS / 2 ? true : undefined),
      `more than half of the ${CONNECTIONS} flood connections to be answered 503`,
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${summary()}`);
    });
    // No connection is closed without its answer: closed at once with the client's bytes unread, the
    // kernel reset it, and the 503 could be lost with it (4 of 12 runs before the refused socket lingered).
    expect(got.filter((g, i) => sockets[i]!.destroyed && g.text === '').length, `connections closed with nothing read: ${summary()}`).toBe(
      0,
    );
    peak = Math.max(peak, rssBytes());
    return { peak, answers: got.map((g) => g.text), sockets };
  }

  it(
    'is refused past the body budget with 503 and a sentence; memory stays bounded and does not add up',
    async () => {
      await alive();
      const baseline = rssBytes();
      const figures: string[] = [];
      let first = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        const { peak, answers, sockets } = await flood();
        const refused = refusedOf(answers);
        expect(refused[0]).toMatch(/too many request bodies are being sent to Working Set at once/);
        expect(
          answers.filter((a) => /^HTTP\/1\.1 5(?!03)/.test(a)),
          'no other 5xx',
        ).toEqual([]);
        // The proxy still answers a request without a body meanwhile.
        await alive();
        for (const s of sockets) s.destroy();
        // Unbounded, 120 such bodies held ~480 MB (the issue saw 4.1 GB for 1,000, and no return).
        expect(peak - baseline, `RSS during round ${round}`).toBeLessThan(200 * MB);
        const after = await until(
          () => {
            const r = rssBytes();
            // What the allocator keeps after a flood varies with the machine's load; refused bodies are
            // read and dropped now (so their clients read the 503), which leaves more garbage: 97–105 MB
            // above baseline on an idle machine. Unbounded it was ~480 MB and never came back.
            return r - baseline < 160 * MB ? r : undefined;
          },
          `the server's RSS to come back within 160 MB of its baseline after round ${round}`,
          30_000,
        ).catch((err: Error) => {
          throw new Error(
            `${err.message} baseline ${(baseline / MB).toFixed(0)} MB, during ${(peak / MB).toFixed(0)} MB, now ${(rssBytes() / MB).toFixed(0)} MB`,
          );
        });
        // A second flood does not add a round's bodies to the first: unbounded, each round kept ~480 MB.
        // The first round's garbage may still be in the heap when the second starts (the collection
        // after a flood runs 6 s after it drains, then not again for at least 5 s), so up to 100 MB is allowed
        // (+52 MB once on a busy CI run).
        if (round === 1) first = peak;
        else expect(peak - first, "the second round adds no more than 100 MB to the first one's peak").toBeLessThan(100 * MB);
        figures.push(
          `round ${round}: RSS during ${(peak / MB).toFixed(0)} MB, after ${(after / MB).toFixed(0)} MB, ${refused.length} of ${CONNECTIONS} answered 503`,
        );
      }
      console.log(
        `body flood, ${CONNECTIONS} connections × ${DECLARED} declared bytes; RSS baseline ${(baseline / MB).toFixed(0)} MB; ${figures.join('; ')}`,
      );
      const lines = serve
        .stderr()
        .split('\n')
        .filter((l) => /refused a request body/.test(l));
      expect(lines.length, 'the cap is logged, rate-limited').toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(4);
      await alive();
    },
    ROUNDS * ROUND_MS + 20_000,
  );
});

describe('a client still sending its body when it is refused', () => {
  it('reads its 503 and the sentence: the socket lingers instead of being reset under it', async () => {
    const DECLARED = 4_193_304;
    const head = `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${DECLARED}\r\n\r\n`;
    // Eight uploads stalled one byte short hold the whole body budget.
    const holders: Socket[] = [];
    for (let i = 0; i < 8; i++) {
      const s = await open();
      s.on('error', () => {});
      s.write(head);
      s.write(Buffer.alloc(DECLARED - 1, 0x20));
      holders.push(s);
    }
    await until(
      async () => {
        const s = await open();
        const got = received(s);
        s.write(head);
        await withDeadline(new Promise((r) => s.once('close', r)), 'a probe upload to be closed', 15_000);
        return got.text.startsWith('HTTP/1.1 503') ? true : undefined;
      },
      'the body budget to be spent by the stalled uploads',
      30_000,
    );
    try {
      // A client that reads only once its whole body is sent (many do): closed at once, the kernel
      // reset the connection under its write and it never read the answer (9 of 10 before).
      for (let i = 0; i < 5; i++) {
        const s = await open();
        s.pause();
        const got = received(s);
        s.write(head);
        s.write(Buffer.alloc(DECLARED, 0x20), () => s.resume());
        await withDeadline(new Promise((r) => s.once('close', r)), `refused upload ${i + 1} to be closed`, 15_000);
        expect(got.text, `refused upload ${i + 1}`).toMatch(/^HTTP\/1\.1 503[\s\S]*too many request bodies are being sent/);
      }
    } finally {
      for (const s of holders) s.destroy();
    }
    await alive();
  }, 120_000);
});

describe('half-open and idle sockets', () => {
  it(`past the cap (${MAX_OPEN_CONNECTIONS}) and past the file limit (${FILE_LIMIT}) cannot lock new clients out, and are all closed after a timeout`, async () => {
    const HALF_OPEN = 1_100;
    const IDLE = 50;
    const before = serve.stderr().length;
    const idle: Socket[] = [];
    for (let i = 0; i < IDLE; i++) idle.push(await open());
    const idleClosed = idle.map(closedByServer);
    const half: Socket[] = [];
    for (let i = 0; i < HALF_OPEN; i++) {
      const s = await open().catch(() => undefined);
      if (!s) continue;
      s.on('error', () => {});
      // A head that never ends: the last CRLF never comes.
      s.write(`GET /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\n`);
      half.push(s);
    }
    const halfClosed = half.map(closedByServer);
    // A slow loris: one header byte a second keeps the socket busy but never finishes its head.
    const loris = await open();
    const lorisAnswer = closedByServer(loris);
    loris.write(`GET /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
    const drip = setInterval(() => loris.writable && loris.write('x'), 1_000);
    try {
      // New clients get in while the flood stays: idle sockets that never sent a request make room for them.
      for (let i = 0; i < 5; i++) await alive();
      const mcp = await rawRequest(
        base,
        'POST',
        '/mcp',
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      );
      expect(mcp.status).toBe(200);
      const log = serve.stderr().slice(before);
      expect(log).toMatch(/closed an idle connection or a stalled upload to make room/);
      expect(log.split('\n').filter((l) => /make room/.test(l)).length, 'rate-limited').toBeLessThanOrEqual(3);
      // Every socket that never sent a whole head is closed by the server, the slow loris with a 408.
      const deadline = (IDLE_SOCKET_MS + HEADERS_TIMEOUT_MS) * 2;
      await withDeadline(
        Promise.all([...idleClosed, ...halfClosed]),
        `the server to close ${IDLE} idle and ${half.length} half-open sockets`,
        deadline,
      );
      expect(await withDeadline(lorisAnswer, 'the server to close the slow loris', deadline)).toMatch(/^HTTP\/1\.1 408/);
      expect(serve.stderr().slice(before)).toMatch(/closed a connection that sent no whole request within 10 s/);
    } finally {
      clearInterval(drip);
      for (const s of [...idle, ...half, loris]) s.destroy();
    }
    await alive();
  }, 120_000);
});
