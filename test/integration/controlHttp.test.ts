// The ControlApi over HTTP: the per-install token, the one-time window link and its cookie, the
// event stream, and config edits that are validated before anything is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import { tempDir } from '../helpers/app.js';

let app: App;
let url: string;
let token: string;
let cfgPath: string;

beforeAll(async () => {
  const dir = tempDir();
  cfgPath = join(dir, 'config.json');
  const raw = { upstreams: { demo: { builtin: 'demo' } }, stateDir: join(dir, 'state'), listen: { port: 0 } };
  writeFileSync(cfgPath, JSON.stringify(raw));
  app = createApp({
    config: validateConfig(raw, dir),
    clock: systemClock,
    log: new MemoryLogger(),
    configFile: { path: cfgPath, raw },
    rendererDir: join(dir, 'no-renderer'),
  });
  url = (await app.start()).url;
  token = readFileSync(join(dir, 'state', 'control-token'), 'utf8').trim();
});
afterAll(() => app?.stop());

const post = (path: string, init: RequestInit = {}) =>
  fetch(`${url}${path}`, { method: 'POST', body: '{}', ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe('the /control transport', () => {
  it('refuses without the token, and with a wrong one', async () => {
    expect((await post('/control/status')).status).toBe(401);
    expect((await post('/control/status', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await post('/control/status', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('serves the typed client, errors with codes', async () => {
    const api = httpControlClient(url, token);
    expect((await api.status({})).toolboxSize).toBe(67);
    await expect(api.promote({ agent: 'default', tool: 'nothing_like_it' })).rejects.toMatchObject({ code: 'tool_not_found' });
  });

  it('turns a one-time window link into a session cookie, once', async () => {
    expect((await fetch(`${url}/ui/`)).status).toBe(401);
    const { url: link } = await httpControlClient(url, token).uiLink({});
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^mws_session_${new URL(url).port}=[^;]+;`));
    expect(cookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Path=/', 'Priority=High', 'SameSite=Strict']);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(401); // spent
    const session = cookie.split(';')[0]!;
    // The cookie alone is not enough (it rides along on requests from pages on other ports too):
    // /control also needs the session's CSRF token, which the window's HTML carries.
    expect((await post('/control/status', { headers: { cookie: session } })).status).toBe(401);
    // The CSRF token arrives once, in the redirect's fragment (which browsers never send to a server).
    const csrf = /^\/ui\/#mws-csrf=([\w-]+)$/.exec(first.headers.get('location')!)![1]!;
    expect(app.ui.session(new Request(`${url}/ui/`, { headers: { cookie: session } }))!.csrf).toBe(csrf);
    expect((await post('/control/status', { headers: { cookie: session, 'x-mws-csrf': csrf } })).status).toBe(200);
    expect((await post('/control/status', { headers: { cookie: session, 'x-mws-csrf': csrf, 'content-type': 'text/plain' } })).status).toBe(
      415,
    );
    const page = await fetch(`${url}/ui/`, { headers: { cookie: session } });
    expect(page.status).toBe(503); // no renderer built in this folder: says how to build it
    expect(await page.text()).toMatch(/npm run build/);
    expect((await fetch(`${url}/ui/../../etc/passwd`, { headers: { cookie: session } })).status).not.toBe(200);
  });

  it('streams core events to an authorized listener', async () => {
    const res = await fetch(`${url}/control/events`, { headers: { authorization: `Bearer ${token}` } });
    const reader = res.body!.getReader();
    await httpControlClient(url, token).promote({ agent: 'default', tool: 'mail_get_message' });
    let text = '';
    while (!text.includes('setChanged')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/data: \{"type":"setChanged","agent":"default"\}/);
    await reader.cancel();
  });
});

describe('settings edits', () => {
  it('refuse a bad value with its field and write nothing', async () => {
    const api = httpControlClient(url, token);
    const before = readFileSync(cfgPath, 'utf8');
    await expect(api.updateAgent({ id: 'default', cap: 0 })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(/"agents\[0\]\.cap" must be a whole number from 1 to 500/),
    });
    expect(readFileSync(cfgPath, 'utf8')).toBe(before);
  });

  it('save a good value to the config file and apply it at once', async () => {
    const api = httpControlClient(url, token);
    await api.createAgent({ id: 'ci', cap: 3 });
    await api.updateAgent({ id: 'ci', name: 'CI bot', approvals: 'read-only' });
    expect(JSON.parse(readFileSync(cfgPath, 'utf8')).agents).toEqual([{ id: 'ci', cap: 3, name: 'CI bot', approvals: 'read-only' }]);
    expect((await api.status({})).agents.find((a) => a.id === 'ci')).toMatchObject({
      name: 'CI bot',
      cap: 3,
      approvals: 'read-only',
      url: `${url}/mcp/ci/mcp`,
    });
    // the new agent's endpoint answers at once
    const res = await fetch(`${url}/mcp/ci`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    await api.deleteAgent({ id: 'ci' });
    expect((await fetch(`${url}/mcp/ci`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('pause the proxy: MCP answers 503 with a sentence, control keeps working', async () => {
    const api = httpControlClient(url, token);
    await api.setProxyPaused({ paused: true });
    const res = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/paused/);
    await api.setProxyPaused({ paused: false });
  });
});
