// A differential test of the fast path (proxy/fastPath.ts): every kind of request it is eligible for —
// each accepted value of each condition it checks (era and protocol version, Host, Origin, Accept,
// content type, id type, method, arguments present or not) crossed with every outcome of a call — goes
// to two instances alike, one with the fast path and one serving everything through the SDK, and the
// answers must agree: status, the headers that matter, and the body. The near misses (one condition
// just outside) must be left to the SDK by both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { join } from 'node:path';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LEGACY_VERSIONS,
  MCP_HEADER,
  MODERN_REVISION,
  PROTOCOL_VERSION_META_KEY,
} from '../../src-main/core/protocol.js';
import { startHttpFixture, type HttpFixture } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { FAST_PATH_CALLS } from '../helpers/fastPathCalls.js';

type Kind = 'fast' | 'sdk';
let fixture: HttpFixture;
const apps: Record<Kind, { app: App; port: number }> = {} as never;
const sids: Record<Kind, string> = {} as never;

beforeAll(async () => {
  fixture = await startHttpFixture('stateless');
  for (const kind of ['fast', 'sdk'] as const) {
    const stateDir = tempDir();
    const config = validateConfig(
      {
        stateDir,
        listen: { port: 0 },
        upstreams: { f: { url: fixture.url } },
        pins: ['f__echo', 'f__add'],
        agents: [{ id: 'default', approvals: 'allow' }],
      },
      stateDir,
    );
    // No search model (a folder without one): ranking by meaning would start when each instance's model
    // has loaded, at different moments, and the two would answer the same search_tools differently.
    const app = createApp({
      config,
      clock: systemClock,
      log: new MemoryLogger(),
      fastPath: kind === 'fast',
      modelDir: join(stateDir, 'no-model'),
    });
    apps[kind] = { app, port: Number(new URL((await app.start()).url).port) };
    sids[kind] = await openSession(apps[kind].port);
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(apps).map((a) => a.app.stop()));
  await fixture?.kill();
});

type Answer = { status: number; headers: Record<string, string | undefined>; body: string };

/** Raw HTTP, so Host and every header are exactly as given (fetch would set Host itself). */
function send(port: number, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string | undefined>, body: text }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

async function openSession(port: number): Promise<string> {
  const headers = { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await send(
    port,
    headers,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'diff-2025', version: '1' } },
    }),
  );
  const sid = init.headers[MCP_HEADER.sessionId];
  if (!sid) throw new Error(`initialize gave no session: HTTP ${init.status} ${init.body.slice(0, 200)}`);
  await send(
    port,
    { ...headers, [MCP_HEADER.sessionId]: sid, [MCP_HEADER.protocolVersion]: '2025-06-18' },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  return sid;
}

/** The one JSON-RPC message of an answer, whether sent as JSON (the fast path) or as an event stream (a 2025 session on the SDK). */
function message(a: Answer): unknown {
  if (a.headers['content-type']?.startsWith('text/event-stream')) {
    return JSON.parse(
      a.body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join(''),
    );
  }
  return JSON.parse(a.body);
}

/** Served by the fast path: it alone sends a whole JSON answer with its length (the SDK's adapter streams). */
const servedFast = (a: Answer) => a.headers['content-length'] !== undefined;

/** Every outcome of a call the fast path handles, and tools/list. */
const CALLS = FAST_PATH_CALLS;

/** Each accepted value of each header condition in the fast path's `eligible`. */
type Variant = { host: 'ip' | 'localhost'; origin: boolean; accept: string; contentType: string; id: number | string };
function variants(legacy: boolean): Variant[] {
  const out: Variant[] = [];
  for (const host of ['ip', 'localhost'] as const)
    for (const origin of [false, true])
      for (const accept of legacy
        ? ['application/json, text/event-stream', 'text/event-stream, application/json']
        : ['application/json, text/event-stream', 'application/json'])
        for (const contentType of ['application/json', 'application/json; charset=utf-8'])
          for (const id of [42, 'req-1']) out.push({ host, origin, accept, contentType, id });
  return out;
}

function headersOf(v: Variant, port: number): Record<string, string> {
  const name = v.host === 'ip' ? '127.0.0.1' : 'localhost';
  return {
    host: `${name}:${port}`,
    ...(v.origin ? { origin: `http://${name}:${port}` } : {}),
    accept: v.accept,
    'content-type': v.contentType,
  };
}

const ENVELOPE = {
  [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
  [CLIENT_INFO_META_KEY]: { name: 'diff', version: '1' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};

function modern(
  kind: Kind,
  v: Variant,
  method: string,
  params: Record<string, unknown>,
  tweak: (h: Record<string, string>, b: Record<string, unknown>) => void = () => {},
) {
  const headers = {
    ...headersOf(v, apps[kind].port),
    [MCP_HEADER.protocolVersion]: MODERN_REVISION,
    [MCP_HEADER.method]: method,
    ...(typeof params.name === 'string' ? { [MCP_HEADER.name]: params.name } : {}),
  };
  const body: Record<string, unknown> = { jsonrpc: '2.0', id: v.id, method, params: { ...params, _meta: ENVELOPE } };
  tweak(headers, body);
  return send(apps[kind].port, headers, JSON.stringify(body));
}

function legacy(
  kind: Kind,
  v: Variant,
  version: string,
  method: string,
  params: Record<string, unknown> | undefined,
  tweak: (h: Record<string, string>, b: Record<string, unknown>) => void = () => {},
) {
  const headers = { ...headersOf(v, apps[kind].port), [MCP_HEADER.protocolVersion]: version, [MCP_HEADER.sessionId]: sids[kind] };
  const body: Record<string, unknown> = { jsonrpc: '2.0', id: v.id, method, ...(params ? { params } : {}) };
  tweak(headers, body);
  return send(apps[kind].port, headers, JSON.stringify(body));
}

/** The headers a client or a browser acts on; the session id is each instance's own, so only its presence is compared. */
function thatMatter(a: Answer, kind: Kind, era: 'modern' | 'legacy') {
  const sid = a.headers[MCP_HEADER.sessionId];
  return {
    // A 2025 client that accepts both may get either type; a 2026 one gets JSON from both paths.
    ...(era === 'modern' ? { type: a.headers['content-type']?.replace(/\s+/g, '').toLowerCase() } : {}),
    session: sid === undefined ? 'none' : sid === sids[kind] ? 'its own' : `another: ${sid}`,
    frame: a.headers['x-frame-options'],
    csp: a.headers['content-security-policy'],
  };
}

async function compare(label: string, era: 'modern' | 'legacy', run: (kind: Kind) => Promise<Answer>, expectFast: boolean) {
  const [fast, sdk] = await Promise.all([run('fast'), run('sdk')]);
  expect(servedFast(fast), `${label}: served by the fast path`).toBe(expectFast);
  expect(servedFast(sdk), `${label}: the SDK instance streams`).toBe(false);
  expect(fast.status, label).toBe(sdk.status);
  expect(thatMatter(fast, 'fast', era), label).toEqual(thatMatter(sdk, 'sdk', era));
  expect(message(fast), label).toEqual(message(sdk));
}

/**
 * Each header variant with each method (tools/list and a call), and each outcome of a call with the
 * first variant: every accepted value of every condition meets both methods, and every outcome is
 * compared, without the whole product (which took 90 s on a busy machine).
 */
function plan<T>(vs: Variant[], calls: T[], methodsOnEveryVariant: T[]): Array<[Variant, T]> {
  return [...vs.flatMap((v) => methodsOnEveryVariant.map((c): [Variant, T] => [v, c])), ...calls.map((c): [Variant, T] => [vs[0]!, c])];
}

describe('the fast path and the SDK path, differentially', () => {
  it('answer every eligible 2026-07-28 request alike', async () => {
    const cases = plan(variants(false), CALLS, [CALLS[0]!, CALLS[1]!]);
    expect(cases.length).toBe(32 * 2 + CALLS.length);
    for (const [v, [label, method, params]] of cases)
      await compare(`${label} ${JSON.stringify(v)}`, 'modern', (kind) => modern(kind, v, method, params), true);
  }, 120_000);

  it('answer every eligible request of a 2025 session alike, in each 2025 version', async () => {
    const versions = [...LEGACY_VERSIONS].filter((x) => x >= '2025-03-26');
    expect(versions.length).toBeGreaterThanOrEqual(3);
    const legacyCalls: Array<[string, string, Record<string, unknown> | undefined]> = [
      ['tools/list without params', 'tools/list', undefined],
      ...CALLS,
    ];
    for (const [i, version] of versions.entries()) {
      // The first version gets every variant; the others every call with the first variant.
      const cases =
        i === 0 ? plan(variants(true), legacyCalls, legacyCalls.slice(0, 3)) : plan(variants(true).slice(0, 1), legacyCalls, []);
      for (const [v, [label, method, params]] of cases)
        await compare(`${label} ${version} ${JSON.stringify(v)}`, 'legacy', (kind) => legacy(kind, v, version, method, params), true);
    }
  }, 120_000);

  // One condition just outside what the fast path takes: both instances must answer through the SDK, alike.
  const v: Variant = { host: 'ip', origin: false, accept: 'application/json, text/event-stream', contentType: 'application/json', id: 7 };
  const nearMisses: Array<[string, (kind: Kind) => Promise<Answer>]> = [
    [
      'a progress token',
      (k) =>
        modern(
          k,
          v,
          'tools/call',
          { name: 'f__echo', arguments: { text: 'p' } },
          (_h, b) => void ((b.params as { _meta: Record<string, unknown> })._meta.progressToken = 1),
        ),
    ],
    ['a cursor on tools/list', (k) => modern(k, v, 'tools/list', { cursor: 'x' })],
    [
      'Mcp-Name not the tool called',
      (k) => modern(k, v, 'tools/call', { name: 'f__echo', arguments: { text: 'n' } }, (h) => void (h[MCP_HEADER.name] = 'f__add')),
    ],
    ['Mcp-Method not the method', (k) => modern(k, v, 'tools/list', {}, (h) => void (h[MCP_HEADER.method] = 'tools/call'))],
    ['arguments that are no object', (k) => modern(k, v, 'tools/call', { name: 'f__echo', arguments: ['x'] })],
    ['an extra param', (k) => modern(k, v, 'tools/call', { name: 'f__echo', arguments: { text: 'e' }, task: {} })],
    [
      'a 2025 request with _meta',
      (k) => legacy(k, v, '2025-06-18', 'tools/call', { name: 'f__echo', arguments: { text: 'm' }, _meta: { progressToken: 2 } }),
    ],
  ];
  it.each(nearMisses)('leave %s to the SDK, both alike', async (label, run) => {
    await compare(label, label.startsWith('a 2025') ? 'legacy' : 'modern', run, false);
  });
});
