// against a real `mws serve`: hostile loopback servers send bodies with no end — 200 MB
// of protected-resource metadata, 5 million nested brackets, an old-style SSE upstream with one giant
// line or an endless event, a Streamable HTTP answer that is one endless SSE line. Each read stops at
// its bound with a sentence in that upstream's log, the instance keeps answering, and the server's
// resident memory grows by less than RSS_GROWTH_BOUND (boundedFetch.ts; figures in docs/rules/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { deadPort, spawnMws, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

const MB = 1024 * 1024;
/** How much the server's RSS may grow across all the attacks: generous for a busy CI, far below the 800 MB they once cost. */
const RSS_GROWTH_BOUND = 150 * MB;
/**
 * The config's "maxResultBytes", which bounds an SSE event from the server: an event is held whole while
 * it arrives, so memory at the bound is a few times this (the default 64 MiB: see docs/rules/security.md).
 */
const MAX_RESULT_MB = Number(process.env.MWS_HOSTILE_MAX_RESULT_MB ?? 16);
/** What each hostile stream offers at most (the attack was 200 MB; the proxy must stop long before). */
const OFFER_BYTES = 200 * MB;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
/** A test's own deadline: the streams and retries of one attack on two busy cores. */
const ATTACK_MS = 90_000;

type Hostile = { url: string; served: () => number; close: () => Promise<void> };

/** Writes `head` then `unit` over and over until OFFER_BYTES or the reader hangs up; counts what it wrote. */
function stream(res: ServerResponse, head: string, unit: Buffer, count: (n: number) => void): void {
  let sent = 0;
  res.write(head);
  const more = () => {
    while (sent < OFFER_BYTES && !res.destroyed) {
      sent += unit.length;
      count(unit.length);
      if (!res.write(unit)) return void res.once('drain', more);
    }
    res.end();
  };
  res.on('error', () => {});
  more();
}

async function hostile(
  handler: (req: { method: string; path: string }, res: ServerResponse, count: (n: number) => void, base: string) => void,
): Promise<Hostile> {
  let served = 0;
  let base = '';
  const server: Server = createServer((req, res) => {
    req.resume();
    handler({ method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://x').pathname }, res, (n) => (served += n), base);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    served: () => served,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** An MCP server that wants a sign-in, whose protected-resource metadata is `body` repeated without end. */
const metadataServer = (head: string, unit: Buffer) =>
  hostile((req, res, count, base) => {
    if (req.path.startsWith('/.well-known/oauth-protected-resource')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return stream(res, head, unit, count);
    }
    if (req.path === '/mcp')
      return void res
        .writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` })
        .end();
    res.writeHead(404).end();
  });

/** An old HTTP+SSE server (Streamable HTTP refused with 405) whose event stream is `head` then `unit` without end. */
const sseServer = (head: string, unit: Buffer) =>
  hostile((req, res, count) => {
    if (req.method === 'GET' && req.path === '/mcp') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      return stream(res, head, unit, count);
    }
    res.writeHead(405, { allow: 'GET' }).end();
  });

/** A Streamable HTTP server that answers `initialize` with one SSE data line that never ends. */
const streamableServer = () =>
  hostile((req, res, count) => {
    if (req.method === 'POST' && req.path === '/mcp') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return stream(res, 'event: message\ndata: {"jsonrpc":"2.0","id":0,"result":{"x":"', CHUNK, count);
    }
    res.writeHead(405).end();
  });

/** A loopback sign-in server that records what it was sent: metadata, and registration for anyone. */
async function signInServer(): Promise<Hostile & { requests: string[] }> {
  const requests: string[] = [];
  const h = await hostile((req, res, _count, base) => {
    requests.push(`${req.method} ${req.path}`);
    if (req.path === '/.well-known/oauth-authorization-server')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
    if (req.path === '/register' && req.method === 'POST')
      return void res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ client_id: 'c1', redirect_uris: ['http://127.0.0.1/oauth/callback'] }));
    res.writeHead(404).end();
  });
  return Object.assign(h, { requests });
}

let serve: Running;
let api: ControlApi;
const servers = new Map<string, Hostile>();
let signIn: Hostile & { requests: string[] };

beforeAll(async () => {
  servers.set('meta', await metadataServer('{"resource":"', CHUNK));
  servers.set('brackets', await metadataServer('', Buffer.alloc(64 * 1024, 0x5b)));
  servers.set('sseline', await sseServer('data: ', CHUNK));
  servers.set('sseevent', await sseServer(': hello\n\n', Buffer.from(`data: ${'x'.repeat(1000)}\n`.repeat(64))));
  servers.set('streamable', await streamableServer());
  signIn = await signInServer();
  const signInBase = new URL(signIn.url).origin;
  servers.set(
    'loopsignin',
    await hostile((req, res, _count, base) => {
      if (req.path.startsWith('/.well-known/oauth-protected-resource'))
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [signInBase] }));
      if (req.path === '/mcp')
        return void res
          .writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` })
          .end();
      res.writeHead(404).end();
    }),
  );
  const dir = tempDir('mws-hostile-');
  const cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  const upstreams: Record<string, unknown> = { demo: { builtin: 'demo' } };
  for (const [name, s] of servers) upstreams[name] = { url: s.url, enabled: false };
  writeFileSync(cfg, JSON.stringify({ upstreams, stateDir, listen: { port: await deadPort() }, maxResultBytes: MAX_RESULT_MB * MB }));
  serve = spawnMws(['serve', '--config', cfg]);
  const base = await listeningBase(serve);
  api = httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim(), 30_000);
  await until(async () => (await api.status({})).toolboxSize > 0, 'the demo upstream to be listed');
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  for (const s of servers.values()) await s.close();
  await signIn?.close();
});

function rssBytes(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.proc.pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

async function attack(vendor: string, sentence: RegExp): Promise<void> {
  await api.setUpstreamEnabled({ vendor, enabled: true });
  const log = await until(
    async () => {
      const lines = (await api.upstreamLog({ vendor })).lines.map((l) => l.text);
      return lines.some((l) => sentence.test(l)) && lines;
    },
    `upstream "${vendor}"'s log to say why its read stopped`,
    ATTACK_MS - 10_000,
  );
  await api.setUpstreamEnabled({ vendor, enabled: false });
  expect(log.join('\n')).toMatch(sentence);
  // The read stopped near its bound, not at the end of what was offered.
  expect(servers.get(vendor)!.served()).toBeLessThan(OFFER_BYTES);
  expect(serve.proc.exitCode, `mws serve exited; stderr:\n${serve.stderr()}`).toBeNull();
  expect((await api.status({})).toolboxSize).toBeGreaterThan(0);
}

describe('hostile bodies against a real mws serve', () => {
  let before = 0;
  let peak = 0;
  let sampler: NodeJS.Timeout | undefined;
  beforeAll(() => {
    before = rssBytes();
    sampler = setInterval(() => (peak = Math.max(peak, rssBytes())), 50);
  });
  afterAll(() => clearInterval(sampler));

  it('stops 200 MB of protected-resource metadata at 1 MiB', { timeout: ATTACK_MS }, async () => {
    await attack('meta', /sign-in server at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp sent more than 1 MiB/);
  });

  it('stops metadata nested millions of brackets deep', { timeout: ATTACK_MS }, async () => {
    await attack('brackets', /sent JSON nested deeper than 512 levels/);
  });

  it('stops an old-style SSE line that never ends at the event bound', { timeout: ATTACK_MS }, async () => {
    await attack('sseline', new RegExp(`sent an SSE event \\(or line\\) of more than ${MAX_RESULT_MB} MiB`));
  });

  it('stops an old-style SSE event that never ends at the event bound', { timeout: ATTACK_MS }, async () => {
    await attack('sseevent', new RegExp(`sent an SSE event \\(or line\\) of more than ${MAX_RESULT_MB} MiB`));
  });

  it('stops a Streamable HTTP answer that is one endless SSE line', { timeout: ATTACK_MS }, async () => {
    await attack('streamable', new RegExp(`sent an SSE event \\(or line\\) of more than ${MAX_RESULT_MB} MiB`));
  });

  it('leaves the server within its memory bound and answering', { timeout: ATTACK_MS }, async () => {
    const grown = await until(
      () => {
        const g = rssBytes() - before;
        return g < RSS_GROWTH_BOUND ? g : undefined;
      },
      `the server's RSS to be within ${RSS_GROWTH_BOUND / MB} MB of ${Math.round(before / MB)} MB (now ${Math.round(rssBytes() / MB)} MB)`,
    );
    console.log(
      `hostile bodies: RSS ${Math.round(before / MB)} MB before, peak +${Math.round((peak - before) / MB)} MB, +${Math.round(grown / MB)} MB after`,
    );
    expect((await api.status({})).toolboxSize).toBeGreaterThan(0);
  });
});

describe('sign-in discovery for an upstream on loopback', () => {
  it('still reaches a sign-in server on another loopback port (metadata and registration)', { timeout: ATTACK_MS }, async () => {
    await api.setUpstreamEnabled({ vendor: 'loopsignin', enabled: true });
    await until(() => signIn.requests.includes('POST /register'), 'the loopback sign-in server to be asked to register a client');
    await api.setUpstreamEnabled({ vendor: 'loopsignin', enabled: false });
    expect(signIn.requests).toContain('GET /.well-known/oauth-authorization-server');
  });
});
