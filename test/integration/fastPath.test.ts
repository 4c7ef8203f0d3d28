// The fast path must answer exactly as the SDK handler would: same requests, both paths, same JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { startHttpFixture, type HttpFixture } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { FAST_PATH_CALLS } from '../helpers/fastPathCalls.js';

let fixture: HttpFixture;
const apps: Record<'fast' | 'sdk', { app: App; url: string }> = {} as never;

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
    const app = createApp({ config, clock: systemClock, log: new MemoryLogger(), fastPath: kind === 'fast' });
    apps[kind] = { app, url: (await app.start()).url };
  }
});
afterAll(async () => {
  await Promise.all(Object.values(apps).map((a) => a.app.stop()));
  await fixture?.kill();
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function rpc(base: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 42, method, params: { ...params, _meta: ENVELOPE } }),
  });
  return { status: res.status, fast: res.headers.get('content-length') !== null, json: (await res.json()) as unknown };
}

const cases = FAST_PATH_CALLS;

/** A 2025 session opened through the SDK path (initialize is never fast), as a 2025 client would. */
async function openSession(base: string): Promise<string> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-2025', version: '1' } },
    }),
  });
  const sid = init.headers.get('mcp-session-id');
  await init.text();
  if (!sid) throw new Error(`initialize gave no session: HTTP ${init.status}`);
  const done = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.text();
  return sid;
}

/** A 2025 request in a session; an event-stream answer (the SDK's) is read back to its JSON message. */
async function legacyRpc(base: string, sid: string, method: string, params: Record<string, unknown> | undefined) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      'mcp-session-id': sid,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params ? { params } : {}) }),
  });
  const text = await res.text();
  const sse = res.headers.get('content-type')?.startsWith('text/event-stream');
  const json = sse
    ? JSON.parse(
        text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join(''),
      )
    : JSON.parse(text);
  return { status: res.status, fast: !sse, session: res.headers.get('mcp-session-id'), json: json as unknown };
}

describe('the fast path for 2025 session clients', () => {
  const sids: Record<'fast' | 'sdk', string> = {} as never;
  beforeAll(async () => {
    sids.fast = await openSession(apps.fast.url);
    sids.sdk = await openSession(apps.sdk.url);
  });

  const legacyCases: Array<[string, string, Record<string, unknown> | undefined]> = [
    ['tools/list', 'tools/list', {}],
    ['tools/list without params', 'tools/list', undefined],
    ...cases.filter(([, m]) => m === 'tools/call').map(([label, m, p]): [string, string, Record<string, unknown>] => [label, m, p]),
  ];

  it.each(legacyCases)('answers %s exactly as the SDK session does', async (_label, method, params) => {
    const [fast, sdk] = await Promise.all([
      legacyRpc(apps.fast.url, sids.fast, method, params),
      legacyRpc(apps.sdk.url, sids.sdk, method, params),
    ]);
    expect(fast.fast).toBe(true);
    expect(sdk.fast).toBe(false);
    expect(fast.status).toBe(sdk.status);
    expect(fast.session).toBe(sids.fast);
    expect(fast.json).toEqual(sdk.json);
  });

  it('leaves an unknown session to the SDK path, which answers 404', async () => {
    const r = await fetch(`${apps.fast.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'mcp-session-id': 'not-a-session',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(r.status).toBe(404);
  });

  it('logs the session and the client of a fast 2025 call', async () => {
    await legacyRpc(apps.fast.url, sids.fast, 'tools/call', { name: 'f__echo', arguments: { text: 'logged' } });
    const { existsSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(apps.fast.app.config.stateDir, 'calls.jsonl');
    const logged = () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [];
    // The call log is written in the background: wait for the line, with a deadline and a message.
    await expect
      .poll(() => logged().some((l) => l.tool === 'f__echo' && l.session === sids.fast && l.client === 'raw-2025'), {
        timeout: 10_000,
        message: 'the fast 2025 call in calls.jsonl with its session and client',
      })
      .toBe(true);
  });
});

describe('the fast path', () => {
  it.each(cases)('answers %s exactly as the SDK handler does', async (_label, method, params) => {
    const [fast, sdk] = await Promise.all([rpc(apps.fast.url, method, params), rpc(apps.sdk.url, method, params)]);
    expect(fast.fast).toBe(true); // served by the fast path
    expect(sdk.fast).toBe(false); // served by the SDK (streamed)
    expect(fast.status).toBe(sdk.status);
    expect(fast.json).toEqual(sdk.json);
  });

  it('leaves requests it does not fully recognize to the SDK (a header that disagrees with the body)', async () => {
    const r = await rpc(apps.fast.url, 'tools/call', { name: 'f__echo', arguments: { text: 'x' } }, { 'mcp-name': 'f__add' });
    expect(r.fast).toBe(false);
    expect(r.json).toMatchObject({ error: {} });
  });

  it('leaves a foreign Host to the SDK path, which refuses it', async () => {
    const { request } = await import('node:http');
    const url = new URL(apps.fast.url);
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: 'evil.example',
            'content-type': 'application/json',
            accept: 'application/json',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/list',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }));
    });
    expect(status).toBe(403);
  });

  it('answers a body that is not JSON with a parse error', async () => {
    const res = await fetch(`${apps.fast.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32700 } });
  });
});
