// The window against pages on another loopback port, in a real Chromium and a real `mws serve`:
// a page that frames /ui/ to take the user's clicks (clickjacking) gets nothing shown and
// no access; the window runs under its full CSP with no violation on any screen; a destructive call
// is never run or granted by one stray click; and a page (or a server) on another port that tosses,
// overwrites or floods cookies for 127.0.0.1 cannot sign the window out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ControlApi } from '../../src-main/core/control/api.js';
import type { Running } from '../helpers/processes.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';
import { connectClient, textOf, type TestClient } from '../helpers/app.js';
import { rawRequest } from '../helpers/rawHttp.js';

let w: WindowServe;
let browser: Browser;
let serve: Running;
let base: string;
let port: number;
let api: ControlApi;
let evil: Server;
let evilBase: string;
/** What the attacking page serves, by path. */
const evilPages = new Map<string, { html: string; headers?: Record<string, string> }>();

beforeAll(async () => {
  w = await serveWithWindow({ upstreams: { demo: { builtin: 'demo' } }, timeouts: { approvalMs: 600_000 } }, { prefix: 'mws-frame-' });
  ({ browser, serve, base } = w);
  port = Number(new URL(base).port);
  api = w.control();
  evil = createServer((req, res) => {
    const p = evilPages.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!p) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html', ...p.headers }).end(p.html);
  });
  await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
  evilBase = `http://127.0.0.1:${(evil.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => (evil ? evil.close(() => r()) : r()));
  await w?.stop();
});

/** A signed-in window in `context` (the cookie and the CSRF token in place), collecting CSP violations. */
async function signedIn(context: BrowserContext, hash = '#/agents'): Promise<{ page: Page; violations: string[] }> {
  const violations: string[] = [];
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (apply|load|execute|frame)/i.test(m.text())) violations.push(m.text());
  });
  page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto((await api.uiLink({})).url);
  await expect.poll(() => page.url(), { timeout: 30_000 }).toBe(`${base}/ui/`);
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('status').waitFor();
  return { page, violations };
}

describe('every answer says it may not be framed', () => {
  it("the window, its sign-in page, its redirect and the API carry X-Frame-Options and frame-ancestors; the window's CSP allows only its own scripts and styles", async () => {
    const { url } = await api.uiLink({});
    const redirect = await rawRequest(base, 'GET', new URL(url).pathname + new URL(url).search);
    const cookie = String(redirect.headers['set-cookie']).split(';')[0]!;
    const answers = {
      redirect,
      window: await rawRequest(base, 'GET', '/ui/', { cookie }),
      signIn: await rawRequest(base, 'GET', '/ui/'),
      api: await rawRequest(base, 'POST', '/control/status', { 'content-type': 'application/json' }, '{}'),
      mcp: await rawRequest(base, 'GET', '/mcp'),
    };
    for (const [what, r] of Object.entries(answers)) {
      expect(r.headers['x-frame-options'], what).toBe('DENY');
      expect(String(r.headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
    }
    expect(answers.window.status).toBe(200);
    const csp = String(answers.window.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(String(answers.signIn.headers['content-security-policy'])).not.toContain('unsafe-inline');
    // The guard refuses a frame navigation before any route: even with the session cookie.
    const framed = await rawRequest(base, 'GET', '/ui/', {
      cookie,
      'sec-fetch-dest': 'iframe',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-site': 'same-site',
    });
    expect(framed.status).toBe(403);
    expect(framed.body).toMatch(/cannot be shown inside a frame/);
  });
});

describe('a page on another loopback port', () => {
  it('cannot frame the signed-in window: nothing of it renders in the frame, and the page has no access to it', async () => {
    const context = await browser.newContext();
    const { page: windowPage } = await signedIn(context);
    const call = connectClient(`${base}/mcp`, 'auto', 'framed-agent').then(async (c) => {
      const r = c.client.callTool({ name: 'demo__mail_delete_message', arguments: { messageId: 'm-1' } });
      return { c, r };
    });
    await expect.poll(async () => (await api.pendingApprovals({})).length, { timeout: 30_000 }).toBe(1);
    evilPages.set('/frame', {
      html: `<!doctype html><body>
        <button id="bait" style="position:absolute;top:0;left:0;width:800px;height:600px">Win a prize</button>
        <iframe id="f" src="${base}/ui/#/inbox" style="position:absolute;top:0;left:0;width:800px;height:600px;opacity:0.01"></iframe>
        <object id="o" data="${base}/ui/" width="400" height="300"></object>
        <script>
          window.access = 'pending';
          document.getElementById('f').addEventListener('load', () => {
            try { window.access = 'read: ' + document.getElementById('f').contentWindow.document.body.innerText.slice(0, 40); }
            catch (e) { window.access = 'denied'; }
          });
        </script></body>`,
    });
    const page = await context.newPage();
    await page.goto(`${evilBase}/frame`);
    await page.waitForFunction(() => (window as unknown as { access: string }).access !== 'pending', undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { access: string }).access)).toBe('denied');
    // No frame holds the window: whatever Chromium shows in its place has none of the window's parts.
    const frames = page.frames().filter((f) => f !== page.mainFrame());
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) {
      expect(f.url(), "a blocked frame shows Chromium's error page, not the window").not.toMatch(new RegExp(`^${base}/ui/`));
      expect(
        await f
          .locator('[data-testid="status"], [data-testid="pending"]')
          .count()
          .catch(() => 0),
      ).toBe(0);
    }
    // The user's two clicks on the bait reach the bait, and the waiting destructive call still waits.
    await page.mouse.click(200, 200);
    await page.mouse.click(200, 200);
    expect((await api.pendingApprovals({})).map((p) => p.tool)).toEqual(['demo__mail_delete_message']);
    expect(await api.grants({})).toEqual([]);
    // The serve log shows the refusals were the guard's (403), not a crash.
    expect(serve.proc.exitCode).toBeNull();
    await api.approve({ agent: 'default', tool: 'demo__mail_delete_message', deny: true });
    const { c, r } = await call;
    expect(textOf(await r)).toMatch(/did not allow/);
    await c.close();
    await windowPage.close();
    await context.close();
  }, 120_000);

  it('cannot sign the window out by tossing cookies for 127.0.0.1 (other paths, the old name, an overwrite by another server, a flood)', async () => {
    const context = await browser.newContext();
    const { page: windowPage } = await signedIn(context);
    const name = `mws_session_${port}`;
    evilPages.set('/toss', {
      // The attacking server can set cookies too (an HTTP answer may even set HttpOnly ones).
      headers: { 'set-cookie': `${name}=from-header; Path=/control/status; HttpOnly` },
      html: `<!doctype html><script>
        const name = ${JSON.stringify(name)};
        for (const path of ['/ui/', '/ui', '/control', '/control/', '/control/status', '/control/events', '/'])
          document.cookie = name + '=tossed; path=' + path;
        document.cookie = 'mws_session=tossed; path=/';
        window.tossed = document.cookie;
      </script>`,
    });
    const page = await context.newPage();
    await page.goto(`${evilBase}/toss`);
    await page.waitForFunction(() => (window as unknown as { tossed?: string }).tossed !== undefined, undefined, { timeout: 30_000 });
    const sent = (await context.cookies()).filter((c) => c.name === name);
    expect(sent.length, 'the browser now holds tossed cookies beside the real one').toBeGreaterThan(1);
    // Script could not overwrite the real (HttpOnly) one at Path=/.
    expect(sent.find((c) => c.path === '/')?.httpOnly).toBe(true);
    // The open window still works, and so does a reload.
    const status = await windowPage.evaluate(async () => {
      const r = await fetch('/control/status', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mws-csrf': localStorage.getItem('mws-csrf')! },
        body: '{}',
      });
      return r.status;
    });
    expect(status).toBe(200);
    await windowPage.reload();
    await windowPage.getByTestId('status').waitFor({ timeout: 30_000 });

    // A server on another port replaces the cookie itself (an HTTP answer may overwrite an HttpOnly
    // cookie of the same name and path): the window's next call gets it back with its CSRF token.
    evilPages.set('/overwrite', { headers: { 'set-cookie': `${name}=overwritten; Path=/; HttpOnly; SameSite=Lax` }, html: '<p>ok</p>' });
    await page.goto(`${evilBase}/overwrite`);
    expect((await context.cookies()).find((c) => c.name === name && c.path === '/')?.value).toBe('overwritten');
    await windowPage.evaluate(() => (location.hash = '#/report'));
    await expect.poll(() => windowPage.getByTestId('report-default').textContent(), { timeout: 30_000 }).toMatch(/tokens listed/);
    expect((await context.cookies()).find((c) => c.name === name && c.path === '/')?.value).not.toBe('overwritten');

    // A flood of cookies for the host pushes the real one out of Chromium's jar: a reload comes back
    // to the window all the same (the sign-in page's script gets the cookie back), with no new link.
    // (Large cookies would instead push the Cookie header past 16 KB, answered 431: see docs/rules/security.md.)
    evilPages.set('/flood', {
      html: `<!doctype html><script>
        for (let i = 0; i < 400; i++) document.cookie = 'f' + i + '=x; path=/; priority=high';
        window.flooded = true;
      </script>`,
    });
    await page.goto(`${evilBase}/flood`);
    await page.waitForFunction(() => (window as unknown as { flooded?: boolean }).flooded === true, undefined, { timeout: 30_000 });
    // A script's cookies reach the jar after the script has run (the page does not wait for them).
    await expect
      .poll(async () => (await context.cookies()).filter((c) => c.name === name && c.path === '/'), {
        message: 'the flood evicted the cookie',
      })
      .toEqual([]);
    await windowPage.reload();
    await windowPage.getByTestId('status').waitFor({ timeout: 30_000 });
    expect(windowPage.url()).toMatch(new RegExp(`^${base}/ui/`));
    await windowPage.close();
    await page.close();
    await context.close();
  }, 120_000);

  it("gives a cookie back only for the window's own CSRF token in a header, from its own origin", async () => {
    const post = (headers: Record<string, string>) => rawRequest(base, 'POST', '/ui/_session', headers);
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-mws-csrf': 'guess' })).status).toBe(401);
    expect((await rawRequest(base, 'GET', '/ui/_session')).status).toBe(405);
    const { url } = await api.uiLink({});
    const redirect = await rawRequest(base, 'GET', new URL(url).pathname + new URL(url).search);
    const csrf = /#mws-csrf=([\w-]+)$/.exec(String(redirect.headers.location))![1]!;
    // Not in the query (that is for the event stream only), not from another port.
    expect((await rawRequest(base, 'POST', `/ui/_session?csrf=${csrf}`)).status).toBe(401);
    expect((await post({ 'x-mws-csrf': csrf, origin: evilBase })).status).toBe(403);
    const ok = await post({ 'x-mws-csrf': csrf, origin: base });
    expect(ok.status).toBe(204);
    expect(String(ok.headers['set-cookie'])).toBe(String(redirect.headers['set-cookie']));
    // An ended session gives nothing back.
    await api.uiRevokeAll({});
    expect((await post({ 'x-mws-csrf': csrf, origin: base })).status).toBe(401);
  });
});

describe('the window under its CSP', () => {
  let agent: TestClient;
  beforeAll(async () => {
    agent = await connectClient(`${base}/mcp`, 'auto', 'csp-agent');
  });
  afterAll(() => agent?.close());

  it('shows every screen with no CSP violation', async () => {
    const context = await browser.newContext();
    const { page, violations } = await signedIn(context);
    for (const hash of [
      '#/agents/default',
      '#/agents/default/history',
      '#/inbox',
      '#/import',
      '#/upstreams',
      '#/search',
      '#/report',
      '#/general',
    ]) {
      await page.evaluate((h) => (location.hash = h), hash);
      await page.locator('main, [role="main"], section').first().waitFor();
      await page.getByTestId('status').waitFor();
    }
    // The report's bars are sized by a style the window sets from script (CSSOM), which the CSP allows.
    await page.evaluate(() => (location.hash = '#/report'));
    await expect.poll(() => page.getByTestId('report-default').textContent(), { timeout: 30_000 }).toMatch(/tokens listed/);
    expect(await page.locator('.bar span').first().getAttribute('style')).toMatch(/width: /);
    expect(violations).toEqual([]);
    await context.close();
  }, 120_000);

  it('runs or grants a destructive call only after a second, deliberate step; a double click does neither', async () => {
    const context = await browser.newContext();
    const { page, violations } = await signedIn(context, '#/inbox');
    const first = agent.client.callTool({ name: 'demo__mail_delete_message', arguments: { messageId: 'm-2' } });
    const card = page.getByTestId('pending');
    await card.waitFor();
    // A double click on "Allow once" only opens the confirm step, whose button is elsewhere and inert at first.
    await page.getByRole('button', { name: 'Allow demo__mail_delete_message once' }).dblclick();
    const confirm = page.getByRole('button', { name: 'Confirm: allow demo__mail_delete_message once' });
    await confirm.waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    expect((await api.pendingApprovals({})).length).toBe(1);
    // Cancel leaves the call waiting.
    await page.getByTestId('confirm-destructive').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('confirm-destructive').waitFor({ state: 'detached' });
    expect((await api.pendingApprovals({})).length).toBe(1);
    // The deliberate way: the button, then its confirmation once it works.
    await page.getByRole('button', { name: 'Allow demo__mail_delete_message once' }).click();
    await confirm.click();
    expect(textOf(await first)).not.toMatch(/did not allow/);
    await card.waitFor({ state: 'detached' });
    expect(await api.grants({})).toEqual([]);

    // "Always allow" the same way: it asks first, then stores the grant.
    const second = agent.client.callTool({ name: 'demo__mail_delete_message', arguments: { messageId: 'm-3' } });
    await card.waitFor();
    await page.getByRole('button', { name: 'Always allow demo__mail_delete_message for Default' }).click();
    expect((await api.grants({})).length).toBe(0);
    await page.getByTestId('confirm-destructive').getByText('from now on without asking').waitFor();
    await page.getByRole('button', { name: 'Confirm: always allow demo__mail_delete_message for Default' }).click();
    expect(textOf(await second)).not.toMatch(/did not allow/);
    expect((await api.grants({})).map((g) => g.tool)).toEqual(['demo__mail_delete_message']);
    await api.revokeGrant({ agent: 'default', tool: 'demo__mail_delete_message' });
    expect(violations).toEqual([]);
    await context.close();
  }, 120_000);
});
