// A listener beyond loopback against real `mws serve` processes: two "hosts" as two
// loopback addresses, the server on 127.0.0.2 with HTTPS (a certificate made here by openssl), the
// clients on 127.0.0.1. Every refusal: a start-up without tokens, without TLS or a proxy; a request
// without a token, with another agent's, with a foreign Host, with a forged X-Forwarded-Host, in plain
// HTTP to the TLS port, and /control or the window without credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exited, runMws, spawnMws, waitForOutput, type Running } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { makeCert, tlsFetch, type TestCert } from '../helpers/tls.js';
import { WAIT_MS } from '../helpers/wait.js';

const SERVER = '127.0.0.2';
const CLIENT = '127.0.0.1';
const TOKEN_A = 'mws_agent-a-token-0123456789abcdef';
const TOKEN_B = 'mws_agent-b-token-0123456789abcdef';

let serve: Running;
let base: string;
let cert: TestCert;
let cfg: string;
let controlToken: string;
const clients: Client[] = [];

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One HTTPS request from the client "host", with any headers (Host included) as given. */
function tlsRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: url.hostname, port: url.port, path, method, headers, ca: cert.pem, localAddress: CLIENT, agent: false, servername: '' },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.setTimeout(WAIT_MS, () => req.destroy(new Error(`no answer within ${WAIT_MS} ms to ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'net', version: '1' } },
});
const mcpHeaders = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...extra,
});

function writeConfig(dir: string, listen: Record<string, unknown>, agents: unknown[]): string {
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ upstream: { builtin: 'demo' }, stateDir: join(dir, 'state'), listen, defaultAgent: false, agents }));
  return path;
}

beforeAll(async () => {
  const dir = tempDir('mws-net-');
  cert = makeCert(dir, SERVER);
  cfg = writeConfig(dir, { host: SERVER, port: 0, tls: { cert: cert.cert, key: cert.key } }, [
    { id: 'a', token: TOKEN_A },
    { id: 'b', token: TOKEN_B },
  ]);
  serve = spawnMws(['serve', '--config', cfg]);
  base = (await waitForOutput(serve, /listening on (https:\/\/\S+)\/mcp/, 'mws serve over TLS'))[1]!;
  controlToken = readFileSync(join(dir, 'state', 'control-token'), 'utf8').trim();
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await serve?.kill();
});

describe('start-up beyond loopback', () => {
  const refused = async (listen: Record<string, unknown>, agents: unknown[], sentence: RegExp) => {
    const dir = tempDir('mws-net-refused-');
    const r = spawnMws(['serve', '--config', writeConfig(dir, listen, agents)]);
    expect(await exited(r, 'a refused mws serve')).not.toBe(0);
    expect(r.stderr()).toMatch(sentence);
  };

  it('refuses a network address with no TLS and no proxy, saying to add either', async () => {
    await refused(
      { host: '0.0.0.0', port: 0 },
      [{ id: 'a', token: TOKEN_A }],
      /"listen\.host".*loopback.*"listen\.tls".*"listen\.publicUrl" with "listen\.trustedProxies"/s,
    );
  });

  it('refuses TLS when an agent has no token, naming it', async () => {
    await refused(
      { host: SERVER, port: 0, tls: { cert: cert.cert, key: cert.key } },
      [{ id: 'a', token: TOKEN_A }, { id: 'open' }],
      /"open" has no token.*mws agent token open/s,
    );
  });

  it('refuses a publicUrl without trusted proxies', async () => {
    await refused(
      { host: '0.0.0.0', port: 0, publicUrl: 'https://mws.example.com' },
      [{ id: 'a', token: TOKEN_A }],
      /"listen\.trustedProxies"/,
    );
  });

  it('refuses a certificate file it cannot read, naming it', async () => {
    await refused(
      { host: SERVER, port: 0, tls: { cert: '/nonexistent/cert.pem', key: cert.key } },
      [{ id: 'a', token: TOKEN_A }],
      /"listen\.tls\.cert" \(\/nonexistent\/cert\.pem\) cannot be read/,
    );
  });
});

describe('an MCP client on another host over HTTPS', () => {
  it('lists its tools with its own token', async () => {
    const client = new Client({ name: 'remote-a', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp/a`), {
        fetch: tlsFetch(cert.pem, CLIENT),
        requestInit: { headers: { authorization: `Bearer ${TOKEN_A}` } },
      }),
    );
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search_tools');
  });

  it('refuses a request without a token', async () => {
    const r = await tlsRequest('POST', '/mcp/a', mcpHeaders(), INIT);
    expect(r.status).toBe(401);
    expect(r.body).toContain('needs its token');
  });

  it("refuses another agent's token", async () => {
    const r = await tlsRequest('POST', '/mcp/a', mcpHeaders({ authorization: `Bearer ${TOKEN_B}` }), INIT);
    expect(r.status).toBe(401);
    expect((await tlsRequest('POST', '/mcp/b', mcpHeaders({ authorization: `Bearer ${TOKEN_B}` }), INIT)).status).toBe(200);
  });

  it('refuses a foreign Host', async () => {
    const r = await tlsRequest('POST', '/mcp/a', mcpHeaders({ authorization: `Bearer ${TOKEN_A}`, host: 'evil.example' }), INIT);
    expect(r.status).toBe(403);
    expect(r.body).toContain('Host header');
  });

  it('refuses a forged X-Forwarded-Host from an address that is no trusted proxy', async () => {
    const r = await tlsRequest(
      'POST',
      '/mcp/a',
      mcpHeaders({ authorization: `Bearer ${TOKEN_A}`, 'x-forwarded-host': new URL(base).host }),
      INIT,
    );
    expect(r.status).toBe(403);
    expect(r.body).toContain('listen.trustedProxies');
  });

  it('answers plain HTTP to the TLS port with a sentence, not a hang', async () => {
    const url = new URL(base);
    const text = await new Promise<string>((resolve, reject) => {
      const s = netConnect({ host: SERVER, port: Number(url.port), localAddress: CLIENT });
      let got = '';
      s.setTimeout(WAIT_MS, () => s.destroy(new Error('no answer to plain HTTP within the deadline')));
      s.on('data', (d: Buffer) => (got += d.toString('latin1')));
      s.on('end', () => resolve(got));
      s.on('close', () => resolve(got));
      s.on('error', reject);
      s.write(`GET /mcp HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain(`use https://${SERVER}:${url.port}/`);
  });
});

describe('/control and the window on the network', () => {
  it('refuse a request without credentials', async () => {
    const r = await tlsRequest('POST', '/control/status', { 'content-type': 'application/json' }, '{}');
    expect(r.status).toBe(401);
    const ui = await tlsRequest('GET', '/ui/');
    expect(ui.body).toContain('Sign in to Working Set');
    expect(ui.body).not.toContain('<script type="module"');
  });

  it('answer the control token in a header; the CLI reaches the instance over HTTPS with the CA trusted', async () => {
    const r = await tlsRequest(
      'POST',
      '/control/status',
      { 'content-type': 'application/json', authorization: `Bearer ${controlToken}` },
      '{}',
    );
    expect(r.status).toBe(200);
    const ui = await runMws(['ui', '--config', cfg], { NODE_EXTRA_CA_CERTS: cert.cert });
    expect(ui.err).toBe('');
    const link = new URL(ui.out.trim());
    expect(link.protocol).toBe('https:');
    // The link carries a one-time token, never the control token; spending it sets a Secure cookie.
    expect(ui.out).not.toContain(controlToken);
    const spent = await tlsRequest('GET', `${link.pathname}${link.search}`);
    expect(spent.status).toBe(303);
    const cookie = String(spent.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });
});
