// A seeded, bounded fuzz of a real `mws serve`: a few thousand mutated requests (odd methods, paths
// with broken %-escapes and dot segments, forged headers, truncated and deformed JSON-RPC bodies,
// raw garbage on the socket). The process must stay up, and every answer must be well formed: a
// status, and for an error a sentence (JSON with an `error`, or text).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import { deadPort, ROOT, spawnTs, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
const SEED = Number(process.env.MWS_FUZZ_SEED ?? 20261130);
const REQUESTS = Number(process.env.MWS_FUZZ_REQUESTS ?? 2500);

let serve: Running;
let base: string;
let port: number;
let token: string;

beforeAll(async () => {
  const dir = tempDir('mws-fuzz-');
  const cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { demo: { builtin: 'demo' } },
      stateDir: join(dir, 'state'),
      listen: { port: await deadPort() },
      // Calls that would wait for a person end at once: the fuzz is about parsing, not waiting.
      timeouts: { approvalMs: 200 },
      agents: [
        { id: 'default', approvals: 'allow' },
        { id: 'bot', token: 'bot-token-0123456789abcdef' },
        { id: 'ro', approvals: 'read-only' },
      ],
    }),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg]);
  base = await listeningBase(serve);
  port = Number(new URL(base).port);
  token = readFileSync(join(dir, 'state', 'control-token'), 'utf8').trim();
});

afterAll(async () => {
  await serve?.kill();
});

/** mulberry32: a small seeded PRNG, so a failure can be replayed with MWS_FUZZ_SEED. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fuzzed = { method: string; path: string; headers: Record<string, string>; body: string | undefined };

function generator(rand: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (n: number) => Math.floor(rand() * n);
  const PATHS = [
    '/mcp',
    '/mcp/',
    '/mcp/bot',
    '/mcp/ro',
    '/mcp/default',
    '/mcp/nobody',
    '/control/status',
    '/control/testUpstream',
    '/control/approve',
    '/control/events',
    '/control/',
    '/ui',
    '/ui/',
    '/ui/index.html',
    '/ui/assets/x.js',
    '/',
    '/favicon.ico',
    '/.well-known/oauth-protected-resource',
  ];
  const BITS = [
    '%',
    '%E0%A4%A',
    '%zz',
    '%00',
    '%2e%2e/',
    '../',
    '//',
    '%ff',
    '%C3%A9',
    '%u0041',
    '?',
    '#',
    ';',
    '%2F',
    '..',
    '~',
    '%25',
    'x'.repeat(300),
    '%'.repeat(40),
  ];
  const mutatePath = (p: string): string => {
    let out = p;
    for (let i = int(3); i > 0; i--) {
      const at = int(out.length + 1);
      out = out.slice(0, at) + pick(BITS) + out.slice(at);
    }
    if (rand() < 0.05) out = out + '/a'.repeat(int(2000));
    return out.startsWith('/') || rand() < 0.9 ? out : out.replace(/^\/?/, '');
  };
  const ORIGINS = [
    undefined,
    undefined,
    undefined,
    base,
    `http://localhost:${port}`,
    `http://127.0.0.1:${port + 1}`,
    'null',
    'http://evil.example',
    'https://127.0.0.1',
  ];
  const HOSTS = [
    undefined,
    undefined,
    undefined,
    undefined,
    '127.0.0.1@evil.example',
    `127.0.0.1:${port}@x`,
    'evil.example',
    `localhost:${port}`,
    `[::1]:${port}`,
    `127.0.0.1:${port + 1}`,
    '',
  ];
  const TYPES = [
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'application/x-www-form-urlencoded',
  ];
  const METHODS = [
    'tools/call',
    'tools/list',
    'initialize',
    'ping',
    'notifications/initialized',
    'resources/list',
    'prompts/get',
    'completion/complete',
    'logging/setLevel',
    'nope',
    '',
  ];
  const names = [
    'search_tools',
    'call_tool',
    'promote',
    'demote',
    'mail_get_message',
    'mail_send_message',
    'demo__drive_upload_file',
    'x'.repeat(1200),
    'a\nb\u001b[31m',
    '',
    '%',
  ];
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const argsOf = (): unknown =>
    pick([
      {},
      { query: pick(['mail', 'q'.repeat(600), 'send an email to bob', '']) },
      { name: pick(names), arguments: {} },
      { name: pick(names), arguments: [] },
      null,
      'x',
      42,
      { messageId: 'm1' },
      { a: { b: { c: [1, 2, { d: 'e' }] } } },
    ]);
  const message = (): Record<string, unknown> => {
    const method = pick(METHODS);
    const params: Record<string, unknown> =
      method === 'initialize'
        ? {
            protocolVersion: pick(['2025-11-25', '2025-03-26', '2026-07-28', 'bogus']),
            capabilities: {},
            clientInfo: { name: 'fuzz', version: '1' },
          }
        : {
            name: pick(names),
            arguments: argsOf(),
            _meta:
              rand() < 0.5
                ? {
                    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                    'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' },
                  }
                : pick([undefined, null, 'x', {}]),
          };
    return {
      jsonrpc: pick(['2.0', '2.0', '2.0', '1.0', undefined]),
      id: pick([1, 'a', null, undefined, 1.5, { x: 1 }, -1, 2 ** 60]),
      method,
      params: pick([params, params, params, [], 'x', null]),
    };
  };
  const bodyOf = (): string | undefined => {
    const kind = int(10);
    if (kind === 0) return undefined;
    if (kind === 1) return '';
    const text = JSON.stringify(rand() < 0.1 ? [message(), message()] : message());
    if (kind === 2) return text.slice(0, int(text.length));
    if (kind === 3) {
      const chars = [...text];
      for (let i = int(5) + 1; i > 0; i--) chars[int(chars.length)] = String.fromCharCode(int(0x2fff));
      return chars.join('');
    }
    if (kind === 4) return text.replace('{}', `{"x":${deep(200 + int(30_000))}}`);
    if (kind === 5) return Buffer.from(Array.from({ length: int(200) }, () => int(256))).toString('latin1');
    return text;
  };
  return (): Fuzzed => {
    const method = pick(['POST', 'POST', 'POST', 'POST', 'GET', 'GET', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'PATCH']);
    const headers: Record<string, string> = {};
    const origin = pick(ORIGINS);
    if (origin !== undefined) headers.origin = origin;
    const host = pick(HOSTS);
    if (host !== undefined) headers.host = host;
    if (rand() < 0.9) headers['content-type'] = pick(TYPES);
    if (rand() < 0.8) headers.accept = pick(['application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*']);
    if (rand() < 0.5) headers['mcp-protocol-version'] = pick(['2026-07-28', '2025-11-25', '2025-06-18', 'garbage']);
    if (rand() < 0.4) headers['mcp-method'] = pick(METHODS);
    if (rand() < 0.3) headers['mcp-name'] = pick(['search_tools', 'mail_get_message', '%', 'x'.repeat(300)]);
    if (rand() < 0.2) headers['mcp-session-id'] = pick(['00000000-0000-0000-0000-000000000000', 'x', '%', '']);
    if (rand() < 0.2)
      headers.authorization = pick(['Bearer ', 'Bearer x', 'Basic eDp5', 'Bearer bot-token-0123456789abcdef', 'bearer', 'Bearer %']);
    if (rand() < 0.1) headers.cookie = pick(['mws_session=x', 'mws_session=', 'a=b; mws_session=%']);
    if (rand() < 0.1) headers['x-mws-csrf'] = pick(['x', '']);
    if (rand() < 0.1) headers['sec-fetch-site'] = pick(['same-site', 'cross-site', 'same-origin', 'none']);
    return { method, path: mutatePath(pick(PATHS)), headers, body: method === 'GET' || method === 'HEAD' ? undefined : bodyOf() };
  };
}

type Outcome = { status: number; type: string; body: string } | { skipped: string };

/** One request; a streaming answer (SSE) is judged by its head and then closed. */
function send(agent: Agent, f: Fuzzed): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = request({ host: '127.0.0.1', port, method: f.method, path: f.path, headers: f.headers, agent }, (res) => {
        const type = String(res.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream')) {
          res.destroy();
          return resolve({ status: res.statusCode ?? 0, type, body: '' });
        }
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
    } catch (err) {
      // Node's client refuses some forged values before sending (e.g. a path it cannot send).
      return resolve({ skipped: (err as Error).message });
    }
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer within 20 s to ${f.method} ${f.path.slice(0, 80)}`)));
    req.on('error', reject);
    req.end(f.body);
  });
}

function judge(f: Fuzzed, o: { status: number; type: string; body: string }): string | undefined {
  const what = `${f.method} ${f.path.slice(0, 120)} ${JSON.stringify(f.headers).slice(0, 200)} → ${o.status}: ${o.body.slice(0, 200)}`;
  if (o.status < 200 || o.status > 599) return `odd status: ${what}`;
  if (o.status === 500) return `internal error: ${what}`;
  if (o.status < 400 || f.method === 'HEAD') return undefined;
  if (o.type.startsWith('application/json')) {
    let parsed: { error?: unknown };
    try {
      parsed = JSON.parse(o.body) as { error?: unknown };
    } catch {
      return `error answer is not JSON: ${what}`;
    }
    const e = parsed.error as { message?: unknown } | undefined;
    if (typeof e?.message !== 'string' || !e.message) return `error answer without a message: ${what}`;
    return undefined;
  }
  if (o.status !== 204 && o.status !== 405 && !o.body.trim() && o.status !== 415) return `empty error answer: ${what}`;
  return undefined;
}

describe(`fuzzing a real mws serve (seed ${SEED}, ${REQUESTS} requests)`, () => {
  it('stays up and answers every request with a well-formed answer', async () => {
    const next = generator(prng(SEED));
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const problems: string[] = [];
    let sent = 0;
    for (let i = 0; i < REQUESTS; i += 6) {
      const batch = Array.from({ length: Math.min(6, REQUESTS - i) }, next);
      const outcomes = await Promise.all(
        batch.map((f) => send(agent, f).catch((err: Error) => ({ skipped: `connection: ${err.message}` }) as Outcome)),
      );
      outcomes.forEach((o, j) => {
        if ('skipped' in o) {
          if (o.skipped.startsWith('connection') && !/socket hang up|ECONNRESET/.test(o.skipped))
            problems.push(`${o.skipped} (${batch[j]!.method} ${batch[j]!.path.slice(0, 80)})`);
          return;
        }
        sent++;
        const p = judge(batch[j]!, o);
        if (p) problems.push(p);
      });
      expect(serve.proc.exitCode, `mws serve exited after request ${i}; stderr:\n${serve.stderr().slice(-2000)}`).toBeNull();
    }
    agent.destroy();
    expect(problems.slice(0, 10)).toEqual([]);
    expect(sent).toBeGreaterThan(REQUESTS * 0.8);
    expect((await httpControlClient(base, token).status({})).toolboxSize).toBeGreaterThan(0);
  }, 240_000);

  it('survives raw garbage on the socket', async () => {
    const garbage = [
      'GARBAGE\r\n\r\n',
      'POST /mcp/% HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}',
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n`,
      `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{"jsonrpc"`,
      `POST /control/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX: ${'b'.repeat(20_000)}\r\n\r\n`,
    ];
    for (const g of garbage) {
      await new Promise<void>((resolve) => {
        const s = connect(port, '127.0.0.1', () => s.end(g));
        s.on('data', () => {});
        s.setTimeout(5_000, () => s.destroy());
        s.on('close', () => resolve());
        s.on('error', () => resolve());
      });
    }
    expect(serve.proc.exitCode).toBeNull();
    expect((await httpControlClient(base, token).status({})).toolboxSize).toBeGreaterThan(0);
  });
});
