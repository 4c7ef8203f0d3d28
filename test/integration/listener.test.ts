// The listener's edges: agents by path, DNS-rebinding defence, and loopback-only binding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { listen } from '../../src-main/core/http/listener.js';
import { decideExposure } from '../../src-main/core/http/exposure.js';
import { MwsError } from '../../src-main/core/errors.js';
import { connectClient, startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ upstream: { builtin: 'demo' }, agents: [{ id: 'ci-bot', pins: ['mail_send_message'] }] });
});
afterAll(() => t?.stop());

/** Raw HTTP, because fetch will not let a test forge the Host header. */
function post(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
  });
}

describe('the listener', () => {
  it('serves configured agents on /mcp/<id>, each with its own list', async () => {
    const bot = await connectClient(`${t.url}/mcp/ci-bot`, 'auto');
    const dflt = await connectClient(`${t.url}/mcp`, 'auto');
    expect((await bot.client.listTools()).tools.map((x) => x.name)).toContain('mail_send_message');
    expect((await dflt.client.listTools()).tools.map((x) => x.name)).not.toContain('mail_send_message');
    await Promise.all([bot.close(), dflt.close()]);
  });

  it('answers an unknown agent with 404 and a sentence', async () => {
    for (const path of ['/mcp/nobody', '/mcp/nobody/mcp']) {
      const r = await post(path, {});
      expect(r.status, path).toBe(404);
      expect(r.body, path).toMatch(/No agent "nobody" is configured here\. Add it under "agents"/);
    }
  });

  it('serves each agent also at the form that ends in /mcp, the one it prints', async () => {
    // Clients such as the MCP Inspector rewrite a URL whose path does not end in /mcp.
    const printed = (await t.app.control.status({})).agents.find((a) => a.id === 'ci-bot')?.url;
    expect(printed).toBe(`${t.url}/mcp/ci-bot/mcp`);
    const bot = await connectClient(printed!, 'auto');
    const legacy = await connectClient(printed!, 'legacy');
    expect((await bot.client.listTools()).tools.map((x) => x.name)).toContain('mail_send_message');
    expect((await legacy.client.listTools()).tools.map((x) => x.name)).toContain('mail_send_message');
    await Promise.all([bot.close(), legacy.close()]);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect((await post('/mcp', { host: 'evil.example.com' })).status).toBe(403);
  });

  it('refuses a foreign Origin', async () => {
    expect((await post('/mcp', { origin: 'http://evil.example.com' })).status).toBe(403);
  });

  it('accepts its own origin, and refuses a page on another loopback port', async () => {
    const port = new URL(t.url).port;
    expect((await post('/mcp', { origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await post('/mcp', { origin: 'http://localhost:3000' })).status).toBe(403);
  });

  it('refuses a non-loopback listen host in the config without TLS or a proxy, naming the field and what to add', () => {
    expect(() => validateConfig({ listen: { host: '0.0.0.0' } }, '/tmp/x')).toThrow(
      /"listen\.host" must be a loopback address.*"listen\.tls"/,
    );
  });

  it('refuses it at start-up with TLS while an agent has no token', () => {
    const d = decideExposure(validateConfig({ listen: { host: '0.0.0.0', tls: { cert: '/c', key: '/k' } } }, '/tmp/x'));
    expect(!d.ok && d.message).toMatch(/"default" has no token/);
  });

  it('refuses to bind a non-loopback host even when asked directly', async () => {
    await expect(listen('0.0.0.0', 0, {})).rejects.toBeInstanceOf(MwsError);
  });
});
