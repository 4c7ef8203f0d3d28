// Attacks against a real `mws serve`: one request that used to end the process, a
// page on another loopback port driving /control (from a real Chromium), per-agent tokens, floods
// of waiting approvals and 2025 sessions, leaked credentials, forged log lines, and blame.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { deadPort, ROOT, spawnTs, waitForOutput, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';
import { rawRequest } from '../helpers/rawHttp.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
const RO_TOKEN = 'ro-token-0123456789abcdef';
const BOT_TOKEN = 'bot-token-0123456789abcdef';
const SECRET = 'sk-live-SECRET-4242';

let serve: Running;
let base: string;
let port: number;
let dir: string;
let stateDir: string;
let api: ControlApi;

beforeAll(async () => {
  dir = tempDir('mws-sec-');
  stateDir = join(dir, 'state');
  const dead = await deadPort();
  const cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { demo: { builtin: 'demo' }, leaky: { url: `http://127.0.0.1:${dead}/mcp?api_key=${SECRET}` } },
      stateDir,
      // A fixed port (chosen free by the OS just before), so the CLI finds this instance.
      listen: { port: await deadPort() },
      defaultAgent: false,
      timeouts: { approvalMs: 600_000 },
      agents: [
        { id: 'ro', approvals: 'read-only', token: RO_TOKEN },
        { id: 'bot', approvals: 'allow', token: BOT_TOKEN },
        { id: 'asker', approvals: 'ask' },
        { id: 'later' },
      ],
    }),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg]);
  base = await listeningBase(serve);
  port = Number(new URL(base).port);
  api = httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim());
});

afterAll(async () => {
  await serve?.kill();
});

async function alive(): Promise<void> {
  expect(serve.proc.exitCode, `mws serve exited; stderr:\n${serve.stderr()}`).toBeNull();
  expect((await api.status({})).toolboxSize).toBeGreaterThan(0);
}

const INIT_2025 = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-era tools/call as a raw body, so arguments may be anything (even too deep for JSON.stringify). */
function call2026(path: string, name: string, argsJson: string, headers: Record<string, string> = {}) {
  const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argsJson},"_meta":${JSON.stringify(ENVELOPE)}}}`;
  return rawRequest(
    base,
    'POST',
    path,
    { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...headers },
    body,
  );
}

/** A window session as the browser holds it: the cookie, and the CSRF token from the login redirect's fragment. */
async function windowSession(): Promise<{ cookie: string; csrf: string }> {
  const { url } = await api.uiLink({});
  const res = await rawRequest(base, 'GET', new URL(url).pathname + new URL(url).search);
  expect(res.status).toBe(303);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const csrf = /#mws-csrf=([\w-]+)$/.exec(String(res.headers.location))?.[1];
  expect(csrf, `the redirect hands over the CSRF token (${String(res.headers.location)})`).toBeDefined();
  // The cookie alone (which a server on another port could have been sent) opens the window's files
  // but carries no secret: the page has no token in it.
  const page = await rawRequest(base, 'GET', '/ui/', { cookie });
  expect(page.body).not.toContain(csrf!);
  return { cookie, csrf: csrf! };
}

describe('no request can end the process', () => {
  it('answers malformed %-escapes in every route with a 4xx and a JSON-RPC error, and stays up', async () => {
    for (const path of ['/mcp/%', '/mcp/%E0%A4%A', '/mcp/%zz', '/mcp/%', '/ui/%', '/ui/%E0%A4%A', '/control/%', '/%']) {
      const r = await rawRequest(base, 'POST', path, { 'content-type': 'application/json' }, '{}');
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      if (path.startsWith('/mcp')) expect(JSON.parse(r.body).error.message, path).toMatch(/malformed %-escape/);
    }
    await alive();
  });

  it('answers a Host like 127.0.0.1@evil.example with 403, not 500', async () => {
    for (const host of ['127.0.0.1@evil.example', `127.0.0.1:${port}@evil.example`, 'evil.example', `127.0.0.1:${port + 1}`]) {
      const r = await rawRequest(base, 'POST', '/mcp/asker', { ...MCP_HEADERS, host }, INIT_2025);
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.body).error.message).toMatch(/Host header/);
    }
    await alive();
  });

  it('blames deep nesting on the proxy, not the upstream, and keeps running', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const r = await call2026('/mcp/bot', 'mail_get_message', `{"messageId":${deep}}`, { authorization: `Bearer ${BOT_TOKEN}` });
    const text = r.body;
    expect(text).toMatch(/nested more than 64 levels deep/);
    expect(text).not.toMatch(/upstream "demo" failed/);
    await alive();
  });

  it('answers a 1,200-letter word in search_tools and as an unknown tool name, and stays up', async () => {
    const word = 'q'.repeat(1200);
    const search = await call2026('/mcp/asker', 'search_tools', JSON.stringify({ query: word }));
    expect(search.status).toBe(200);
    const unknown = await call2026('/mcp/asker', word, '{}');
    expect(unknown.status).toBe(200);
    expect(JSON.parse(unknown.body).error.message).toMatch(/No tool named/);
    await alive();
  });
});

describe('per-agent access', () => {
  it("refuses an agent's endpoint without its token (401) and with another agent's token, and serves it with its own", async () => {
    expect((await rawRequest(base, 'POST', '/mcp/bot', MCP_HEADERS, INIT_2025)).status).toBe(401);
    expect((await rawRequest(base, 'POST', '/mcp/bot', { ...MCP_HEADERS, authorization: `Bearer ${RO_TOKEN}` }, INIT_2025)).status).toBe(
      401,
    );
    const denied = await call2026('/mcp/bot', 'mail_send_message', '{}');
    expect(denied.status).toBe(401);
    expect(JSON.parse(denied.body).error.message).toMatch(/needs its token: send the header "Authorization: Bearer <token>"/);
    expect((await rawRequest(base, 'POST', '/mcp/bot', { ...MCP_HEADERS, authorization: `Bearer ${BOT_TOKEN}` }, INIT_2025)).status).toBe(
      200,
    );
  });

  it('the path cannot dodge the gate: /x/../mcp/bot and %2e%2e reach the same check', async () => {
    for (const path of ['/x/../mcp/bot', '/x/%2e%2e/mcp/bot', '/mcp/%62ot']) {
      expect((await rawRequest(base, 'POST', path, MCP_HEADERS, INIT_2025)).status, path).toBe(401);
    }
  });

  it('with defaultAgent: false, /mcp is not served, so no permissive endpoint stays open', async () => {
    const r = await rawRequest(base, 'POST', '/mcp', MCP_HEADERS, INIT_2025);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error.message).toMatch(/default agent is switched off/);
    expect((await rawRequest(base, 'POST', '/mcp/default', MCP_HEADERS, INIT_2025)).status).toBe(404);
  });

  it('`mws agent token` gives an open agent a token, shown once, and its endpoint requires it at once', async () => {
    expect((await rawRequest(base, 'POST', '/mcp/later', MCP_HEADERS, INIT_2025)).status).toBe(200);
    const cli = spawnTs(MWS, ['agent', 'token', 'later', '--config', join(dir, 'config.json')]);
    const token = (await waitForOutput(cli, /Authorization: Bearer (mws_[\w-]+)/, 'mws agent token'))[1]!;
    await cli.kill();
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).agents.find((a: { id: string }) => a.id === 'later').token).toBe(
      token,
    );
    await expect
      .poll(async () => (await rawRequest(base, 'POST', '/mcp/later', MCP_HEADERS, INIT_2025)).status, { timeout: 30_000 })
      .toBe(401);
    expect((await rawRequest(base, 'POST', '/mcp/later', { ...MCP_HEADERS, authorization: `Bearer ${token}` }, INIT_2025)).status).toBe(
      200,
    );
    expect((await api.clientConfigs({ agent: 'later' })).claudeCode).toContain(`Authorization: Bearer ${token}`);
  }, 120_000);

  it('the ready-to-paste client configs carry the header', async () => {
    const c = await api.clientConfigs({ agent: 'bot' });
    expect(c.claudeCode).toContain(`--header 'Authorization: Bearer ${BOT_TOKEN}'`);
    expect(JSON.parse(c.json).mcpServers.toolbox.headers).toEqual({ Authorization: `Bearer ${BOT_TOKEN}` });
    expect(c.codex).toContain(`http_headers = { "Authorization" = "Bearer ${BOT_TOKEN}" }`);
    expect((await api.clientConfigs({ agent: 'asker' })).json).not.toContain('Authorization');
  });
});

describe('the control plane cannot be driven cross-site', () => {
  it("refuses another port's Origin, a text/plain body, and the cookie without the CSRF header; the command never runs", async () => {
    const { cookie, csrf } = await windowSession();
    const marker = join(dir, 'pwned-1.txt');
    const body = JSON.stringify({ upstream: { command: 'sh', args: ['-c', `touch ${marker}`] } });
    const attempts: Array<[string, Record<string, string>, number]> = [
      ['other port', { cookie, 'x-mws-csrf': csrf, 'content-type': 'application/json', origin: `http://127.0.0.1:${port + 1}` }, 403],
      ['text/plain', { cookie, 'x-mws-csrf': csrf, 'content-type': 'text/plain' }, 415],
      ['cookie only', { cookie, 'content-type': 'application/json', origin: base }, 401],
      ['same-site fetch', { cookie, 'x-mws-csrf': csrf, 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, 403],
    ];
    for (const [what, headers, status] of attempts) {
      expect((await rawRequest(base, 'POST', '/control/testUpstream', headers, body)).status, what).toBe(status);
    }
    expect(existsSync(marker)).toBe(false);
    // The window itself (its origin, its token) still works.
    const ok = await rawRequest(
      base,
      'POST',
      '/control/status',
      { cookie, 'x-mws-csrf': csrf, 'content-type': 'application/json', origin: base },
      '{}',
    );
    expect(ok.status).toBe(200);
  });

  it('`mws ui --revoke-all` ends every window session', async () => {
    const { cookie, csrf } = await windowSession();
    const cli = spawnTs(MWS, ['ui', '--revoke-all', '--config', join(dir, 'config.json')]);
    await waitForOutput(cli, /Ended \d+ window sessions?/, 'mws ui --revoke-all');
    await cli.kill();
    expect(
      (await rawRequest(base, 'POST', '/control/status', { cookie, 'x-mws-csrf': csrf, 'content-type': 'application/json' }, '{}')).status,
    ).toBe(401);
    expect((await rawRequest(base, 'GET', '/ui/', { cookie })).status).toBe(401);
  }, 120_000);

  describe('from a real page in Chromium on another loopback port', () => {
    let browser: Browser;
    let evil: Server;
    let evilUrl: string;
    beforeAll(async () => {
      browser = await launchChromium();
      evil = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>
          const target = ${JSON.stringify(base)};
          const marker = ${JSON.stringify(join(dir, 'pwned-2.txt'))};
          const body = JSON.stringify({ upstream: { command: 'sh', args: ['-c', 'touch ' + marker] } });
          const tries = [
            fetch(target + '/control/testUpstream', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body }),
            fetch(target + '/control/testUpstream', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', 'x-mws-csrf': 'guess' }, body }),
            fetch(target + '/mcp/%', { method: 'POST', mode: 'no-cors' }),
            fetch(target + '/mcp/%E0%A4%A', { method: 'POST', mode: 'no-cors', body: '{}' }),
          ];
          Promise.allSettled(tries).then((r) => { window.done = r.map((x) => x.status); });
        </script>`);
      });
      await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
      evilUrl = `http://127.0.0.1:${(evil.address() as { port: number }).port}/`;
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((r) => (evil ? evil.close(() => r()) : r()));
    });

    it('with the window open in the same browser, the page can neither run a command nor crash the proxy', async () => {
      const context = await browser.newContext();
      const windowPage = await context.newPage();
      const { url } = await api.uiLink({});
      await windowPage.goto(url);
      // The window took its CSRF token from the fragment and cleared the address bar.
      await expect.poll(() => windowPage.url(), { timeout: 30_000 }).toBe(`${base}/ui/`);
      expect((await context.cookies(base)).map((c) => c.name)).toContain(`mws_session_${port}`);

      const page = await context.newPage();
      await page.goto(evilUrl);
      await page.waitForFunction(() => (window as unknown as { done?: string[] }).done !== undefined, undefined, { timeout: 30_000 });
      expect(existsSync(join(dir, 'pwned-2.txt'))).toBe(false);
      await alive();
      // The window in the same browser keeps working.
      const status = await windowPage.evaluate(async () => {
        const csrf = localStorage.getItem('mws-csrf')!;
        const r = await fetch('/control/status', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-mws-csrf': csrf },
          body: '{}',
        });
        return r.status;
      });
      expect(status).toBe(200);
      await context.close();
    }, 120_000);
  });
});

describe('bounded memory per client', () => {
  it('caps calls waiting for approval per agent, lists their arguments truncated, and frees them when decided', async () => {
    const content = 'z'.repeat(100_000);
    const calls = Array.from({ length: 20 }, () => call2026('/mcp/asker', 'drive_upload_file', JSON.stringify({ name: 'a.txt', content })));
    // 16 wait; the rest are refused at once with a sentence.
    const refused = await Promise.race([
      Promise.all(calls.slice(16)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('calls over the cap were not refused within 60 s')), 60_000)),
    ]);
    const waitingPoll = async () => (await api.pendingApprovals({ agent: 'asker' })).length;
    for (const r of refused) expect(JSON.parse(r.body).result.content[0].text).toMatch(/16 calls of this agent are already waiting/);
    await expect.poll(waitingPoll, { timeout: 30_000 }).toBe(16);
    const listed = await rawRequest(
      base,
      'POST',
      '/control/pendingApprovals',
      { authorization: `Bearer ${readFileSync(join(stateDir, 'control-token'), 'utf8').trim()}`, 'content-type': 'application/json' },
      '{}',
    );
    expect(listed.body.length).toBeLessThan(100_000);
    expect(JSON.parse(listed.body).result[0].argumentBytes).toBeGreaterThan(100_000);
    await api.approve({ agent: 'asker', tool: 'drive_upload_file', deny: true });
    for (const r of await Promise.all(calls.slice(0, 16))) expect(JSON.parse(r.body).result.content[0].text).toMatch(/did not allow/);
    expect(await waitingPoll()).toBe(0);
  }, 120_000);

  it('closes the least recently used 2025 session once 256 are live', async () => {
    const open = async () => {
      const r = await rawRequest(base, 'POST', '/mcp/asker', MCP_HEADERS, INIT_2025);
      expect(r.status).toBe(200);
      return String(r.headers['mcp-session-id']);
    };
    const ping = (sid: string) =>
      rawRequest(
        base,
        'POST',
        '/mcp/asker',
        { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      );
    const oldest = await open();
    const kept = await open();
    for (let i = 0; i < 254; i++) await open();
    expect((await ping(kept)).status).toBe(200); // used: now the most recent
    await open(); // the 257th: the least recently used (`oldest`) closes
    expect((await ping(oldest)).status).toBe(404);
    expect((await ping(kept)).status).toBe(200);
  }, 120_000);
});

describe('no secrets shown, no forged log lines', () => {
  it('masks the credential in an upstream URL in /control/upstreams, /control/status and the log', async () => {
    await expect
      .poll(async () => (await api.status({})).upstreams.find((u) => u.vendor === 'leaky')?.status, { timeout: 30_000 })
      .toBe('down');
    const rows = await api.upstreams({});
    const leaky = rows.find((r) => r.vendor === 'leaky')!;
    expect((leaky.config as { url: string }).url).toContain('api_key=***');
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.stringify(await api.status({}))).not.toContain(SECRET);
    expect(serve.stderr()).not.toContain(SECRET);
  });

  it('writes a client-supplied tool name into the log as one escaped line', async () => {
    const init = await rawRequest(base, 'POST', '/mcp/asker', MCP_HEADERS, INIT_2025);
    const sid = String(init.headers['mcp-session-id']);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    await rawRequest(base, 'POST', '/mcp/asker', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const before = serve.stderr().split('\n').length;
    const r = await rawRequest(
      base,
      'POST',
      '/mcp/asker',
      headers,
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x\nmws: warning: forged\u001b[31m', arguments: {} } }),
    );
    expect(r.status).toBe(200);
    await alive();
    expect(serve.stderr()).not.toContain('\u001b[31m');
    expect(
      serve
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('mws: warning: forged')),
    ).toEqual([]);
    expect(serve.stderr().split('\n').length).toBeGreaterThanOrEqual(before);
  });
});
