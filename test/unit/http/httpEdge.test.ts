// The HTTP edge's routes (core/http/routes.ts) against Web Requests, no sockets: every path reaches one
// route whatever the order they were declared in, the window's files come with their types and
// headers, and what Hono does not do for us (every value of a cookie name) is shown to be needed.
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { edgeApp, PATTERNS, type Mounts } from '../../../src-main/core/http/routes.js';
import { agentIdOf } from '../../../src-main/core/http/mcpPaths.js';
import { cookieValues, SESSION_COOKIE, UiSessions } from '../../../src-main/core/http/uiSessions.js';
import { WINDOW_CSP } from '../../../src-main/core/http/windowHeaders.js';
import { tempDir } from '../../helpers/app.js';

const ORIGIN = 'http://127.0.0.1:4484';
const named = (name: string) => async () => new Response(name);

function mounts(rendererDir = tempDir()): Mounts & { ui: { sessions: UiSessions; rendererDir: string } } {
  return {
    mcp: { endpoint: (id) => (id === 'nobody' ? undefined : { handle: async () => new Response(`mcp:${id}`) }) },
    control: async (r) => new Response(`control:${new URL(r.url).pathname.slice('/control/'.length)}`),
    events: named('events'),
    oauthCallback: named('oauth'),
    ui: { sessions: new UiSessions(() => 0), rendererDir },
  };
}

/** Paths near every pattern and between them, tricky ones included. */
const PROBES = [
  '/',
  '/x',
  '/mcp',
  '/mcp/',
  '/mcp/a',
  '/mcp/a/',
  '/mcp/a/b',
  '/mcpx',
  '/mcp/_session',
  '/control',
  '/control/',
  '/control/events',
  '/control/status',
  '/control/events/x',
  '/oauth/callback',
  '/oauth/callback/',
  '/oauth',
  '/ui',
  '/ui/',
  '/ui/index.html',
  '/ui/assets/a.js',
  '/ui/_session',
  '/ui/_renew.js',
  '/ui/_x',
  '/ui/a/_b',
  '/uix',
  '/ui/_session/x',
];

describe('the edge routes', () => {
  it('match every path with at most one pattern, so their order cannot matter', async () => {
    const patterns = Object.values(PATTERNS).flat();
    for (const path of PROBES) {
      const hits: string[] = [];
      for (const p of patterns) {
        const one = new Hono({ getPath: (r) => new URL(r.url).pathname });
        one.all(p, (c) => c.text('hit'));
        if ((await one.fetch(new Request(ORIGIN + path))).status === 200) hits.push(p);
      }
      // The four MCP patterns are one route (one handler); any other pair would depend on its order.
      const routes = new Set(hits.map((h) => ((PATTERNS.mcp as readonly string[]).includes(h) ? 'mcp' : h)));
      expect(routes.size, `${path} is matched by ${hits.join(', ')}`).toBeLessThanOrEqual(1);
    }
  });

  it('send each path where it belongs', async () => {
    const app = edgeApp(mounts());
    const body = async (path: string, method = 'GET') => {
      // As the edge hands it over: the agent its (undecoded) path names.
      const r = await app.fetch(new Request(ORIGIN + path, { method }), { agentId: agentIdOf(path) ?? undefined });
      return `${r.status} ${(await r.text()).trim().slice(0, 40)}`;
    };
    expect(await body('/control/events')).toBe('200 events');
    // A POST to the events path is a (non-existent) method, as before; GET of a method is control's to refuse.
    expect(await body('/control/events', 'POST')).toBe('200 control:events');
    expect(await body('/control/status', 'POST')).toBe('200 control:status');
    expect(await body('/control/status')).toBe('200 control:status');
    expect(await body('/mcp')).toBe('200 mcp:default');
    expect(await body('/mcp/')).toBe('200 mcp:default');
    expect(await body('/mcp/ci-bot', 'POST')).toBe('200 mcp:ci-bot');
    expect(await body('/mcp/ci-bot/mcp', 'POST')).toBe('200 mcp:ci-bot');
    expect(await body('/mcp/ci-bot/mcp/', 'POST')).toBe('200 mcp:ci-bot');
    expect(await body('/mcp/nobody/mcp')).toMatch(/^404 No agent "nobody"/);
    expect(await body('/mcp/ci-bot/other')).toMatch(/^404 Nothing at/);
    expect(await body('/mcp/a%2Fb')).toBe('200 mcp:a/b');
    expect(await body('/mcp/nobody')).toMatch(/^404 No agent "nobody"/);
    expect(await body('/oauth/callback')).toBe('200 oauth');
    expect(await body('/')).toBe('303 ');
    expect(await body('/nothing')).toMatch(/^404 Nothing at "\/nothing"/);
  });

  it('never decode a path into the MCP route that the gate saw as another path', async () => {
    // The listener's agent gate reads the undecoded path; `/m%63p` is no MCP path to it, so it is none here.
    const app = edgeApp(mounts());
    for (const path of ['/m%63p', '/%6dcp', '/m%63p/ci-bot']) {
      const r = await app.fetch(new Request(ORIGIN + path, { method: 'POST' }), { agentId: agentIdOf(path) ?? undefined });
      expect(r.status, path).toBe(404);
      expect(await r.text()).toMatch(/^Nothing at/);
    }
  });
});

describe('the window files', () => {
  function built(): string {
    const dir = tempDir();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>w</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'app.css'), 'body{}');
    writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
    writeFileSync(join(dir, 'font.woff2'), 'x');
    return dir;
  }
  async function signedIn(m: ReturnType<typeof mounts>): Promise<string> {
    const app = edgeApp(m);
    const r = await app.fetch(new Request(`${ORIGIN}/ui?token=${m.ui.sessions.link()}`));
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toMatch(/^\/ui\/#mws-csrf=[\w-]+$/);
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    return r.headers.get('set-cookie')!.split(';')[0]!;
  }

  it('serve each file with its type, no-store and the window headers, to a session only', async () => {
    const m = mounts(built());
    const app = edgeApp(m);
    const cookie = await signedIn(m);
    const get = (path: string, method = 'GET') => app.fetch(new Request(ORIGIN + path, { method, headers: { cookie } }));
    const types: Record<string, string> = {
      '/ui/': 'text/html; charset=utf-8',
      '/ui/index.html': 'text/html; charset=utf-8',
      '/ui/assets/app.js': 'text/javascript; charset=utf-8',
      '/ui/assets/app.css': 'text/css; charset=utf-8',
      '/ui/favicon.svg': 'image/svg+xml; charset=utf-8',
      '/ui/font.woff2': 'font/woff2',
    };
    for (const [path, type] of Object.entries(types)) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type'), path).toBe(type);
      expect(r.headers.get('cache-control'), path).toBe('no-store');
      expect(r.headers.get('content-security-policy'), path).toBe(WINDOW_CSP);
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    expect((await get('/ui/', 'HEAD')).status).toBe(200);
    expect((await get('/ui')).status).toBe(301);
    // Out of the folder, by any spelling: never a file.
    // (`%2e%2e` is `..` to the URL parser: that request is for /etc/passwd, which nothing serves.)
    expect((await get('/ui/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    for (const path of ['/ui/..%2f..%2fetc%2fpasswd', '/ui/assets//app.js', '/ui/assets%5capp.js', '/ui/nope.js', '/ui/_x']) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
    }
    // No session: the sign-in page with its own CSP (kept under the window headers), not the file.
    const out = await app.fetch(new Request(`${ORIGIN}/ui/assets/app.js`));
    expect(out.status).toBe(401);
    expect(out.headers.get('content-type')).toMatch(/^text\/html/);
    expect(out.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(out.headers.get('x-frame-options')).toBe('DENY');
  });

  it('say how to build the window when it is not built, and serve it once it is', async () => {
    const dir = join(tempDir(), 'later');
    const m = mounts(dir);
    const app = edgeApp(m);
    const cookie = await signedIn(m);
    const r = await app.fetch(new Request(`${ORIGIN}/ui/`, { headers: { cookie } }));
    expect(r.status).toBe(503);
    expect(await r.text()).toMatch(/npm run build/);
    mkdirSync(dir);
    writeFileSync(join(dir, 'index.html'), 'built');
    expect(await (await app.fetch(new Request(`${ORIGIN}/ui/`, { headers: { cookie } }))).text()).toBe('built');
  });

  it('renew the cookie with the CSRF header only, by POST', async () => {
    const m = mounts();
    const app = edgeApp(m);
    const { csrf } = m.ui.sessions.exchange(m.ui.sessions.link())!;
    const renew = (method: string, headers: Record<string, string>) => app.fetch(new Request(`${ORIGIN}/ui/_session`, { method, headers }));
    expect((await renew('GET', { 'x-mws-csrf': csrf })).status).toBe(405);
    expect((await renew('POST', { 'x-mws-csrf': 'wrong' })).status).toBe(401);
    const ok = await renew('POST', { 'x-mws-csrf': csrf });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('set-cookie')).toMatch(/^mws_session_4484=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Priority=High$/);
    expect(ok.headers.get('x-frame-options')).toBe('DENY');
    const script = await app.fetch(new Request(`${ORIGIN}/ui/_renew.js`));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});

describe('cookies', () => {
  it("need every value of the session's name: Hono's getCookie keeps only the first, which a tossed cookie takes", async () => {
    const name = `${SESSION_COOKIE}_4484`;
    const header = `${name}=tossed; ${name}=real`;
    const app = new Hono();
    app.get('/', (c) => c.text(getCookie(c, name) ?? ''));
    expect(await (await app.fetch(new Request(`${ORIGIN}/`, { headers: { cookie: header } }))).text()).toBe('tossed');
    expect(cookieValues(header, name)).toEqual(['tossed', 'real']);
  });
});
