// People sign in to the window through the team's identity provider, in a real browser (Debian's
// Chromium) at a real OpenID provider (oidc-provider): the sign-in page offers the provider; the
// instance spends the code with its PKCE verifier and opens a window session with the person's role.
// The window's own calls then do exactly what that role allows, and a change says who made it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WINDOW_CLIENT } from '../fixtures/oidc/server.js';
import { operatorsRig } from '../helpers/operators.js';
import { ROOT } from '../helpers/processes.js';
import { WAIT_MS, withDeadline } from '../helpers/wait.js';

const rig = operatorsRig({ window: WINDOW_CLIENT }, () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
});

/** Opens the window's address, follows "Sign in with your team's identity provider" as `person`, and waits for where it lands. */
async function signIn(person: string | undefined): Promise<Page> {
  rig.oidc.signInAs(person);
  const page = await (await rig.browser.newContext()).newPage();
  await page.goto(`${rig.base}/ui/`);
  await page.click('#sign-in-provider', { timeout: WAIT_MS });
  await page.waitForURL((u) => u.pathname === '/ui/' || u.pathname === '/ui/_signin/callback', { timeout: WAIT_MS });
  return page;
}

/**
 * Waits for the window proper. The sign-in page sends the browser to `/ui/#mws-csrf=…` and the window
 * removes that fragment as soon as its script runs, so only the path is a landmark that stays.
 */
async function windowOpened(page: Page): Promise<void> {
  await page.waitForURL((u) => u.pathname === '/ui/', { timeout: WAIT_MS });
  await page.getByRole('navigation').waitFor({ timeout: WAIT_MS });
}

/** A control call the window itself makes: its session cookie and the CSRF token it keeps. */
async function windowCall(page: Page, method: string, args: Record<string, unknown> = {}) {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('mws-csrf')), { timeout: WAIT_MS }).toBeTruthy();
  return page.evaluate(
    async ([m, a]) => {
      const res = await fetch(`/control/${m}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mws-csrf': localStorage.getItem('mws-csrf')! },
        body: JSON.stringify(a),
      });
      return { status: res.status, body: (await res.json()) as { result?: { operator?: unknown }; error?: { message: string } } };
    },
    [method, args] as const,
  );
}

describe('the window signs people in through the identity provider', () => {
  it('a viewer gets the window and reads, and every change is refused with a sentence', async () => {
    const page = await signIn('carol');
    await windowOpened(page);
    const status = await windowCall(page, 'status');
    expect(status.status).toBe(200);
    expect(status.body.result?.operator).toEqual({ name: 'carol', role: 'viewer' });
    const promote = await windowCall(page, 'promote', { agent: 'default', tool: 'mail_list_labels' });
    expect(promote.status).toBe(403);
    expect(promote.body.error?.message).toMatch(/Signed in as carol with the viewer role, which may not call promote/);
    await page.context().close();
  });

  it("an admin's change from the window is recorded as theirs", async () => {
    const page = await signIn('alice');
    const r = await windowCall(page, 'promote', { agent: 'default', tool: 'mail_get_message' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const history = await rig.s.app.control.history({ agent: 'default' });
    expect(history).toEqual(expect.arrayContaining([expect.objectContaining({ tool: 'mail_get_message', by: 'alice' })]));
    await page.context().close();
  });

  it('a person with no role, and a sign-in refused at the provider, get a sentence and no session', async () => {
    const none = await signIn('dave');
    await expect
      .poll(() => none.textContent('main'), { timeout: WAIT_MS })
      .toMatch(/Signed in as dave, but the token's "roles" claim holds none/);
    expect(await none.evaluate(() => localStorage.getItem('mws-csrf'))).toBeNull();
    await none.context().close();

    const refused = await signIn(undefined);
    await expect
      .poll(() => refused.textContent('main'), { timeout: WAIT_MS })
      .toMatch(/The identity provider did not sign you in \(access_denied: The person <b>refused<\/b>\.\)/);
    // The provider's own words are shown as text, never as markup.
    expect(await refused.locator('main b').count()).toBe(0);
    await refused.context().close();
  });

  it("reads the provider's metadata once for every sign-in, however often the sign-in is opened", async () => {
    const before = rig.oidc.counts.discovery;
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${rig.base}/ui/_signin`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')!.startsWith(`${rig.oidc.issuer}/auth?`)).toBe(true);
    }
    expect(rig.oidc.counts.discovery - before).toBe(0);
  });

  it("strangers opening the sign-in many times meanwhile do not push a person's sign-in out", async () => {
    rig.oidc.signInAs('bob');
    const page = await (await rig.browser.newContext()).newPage();
    // While the person is at the provider's login screen, 200 sign-ins are started elsewhere.
    const held = rig.oidc.holdNext();
    await page.goto(`${rig.base}/ui/`);
    const clicked = page.click('#sign-in-provider', { timeout: WAIT_MS });
    await withDeadline(held.reached, 'the person to reach the login screen');
    const started = await Promise.all(Array.from({ length: 200 }, () => fetch(`${rig.base}/ui/_signin`, { redirect: 'manual' })));
    expect(started.filter((r) => r.status === 303)).toHaveLength(200);
    held.release();
    await clicked;
    await windowOpened(page);
    expect((await windowCall(page, 'status')).body.result?.operator).toEqual({ name: 'bob', role: 'approver' });
    await page.context().close();
  });

  it('a callback this browser did not start signs no one in', async () => {
    const page = await (await rig.browser.newContext()).newPage();
    const res = await page.goto(`${rig.base}/ui/_signin/callback?code=forged&state=forged`);
    expect(res?.status()).toBe(400);
    expect(await page.textContent('main')).toMatch(/This sign-in was not started in this browser/);
    const direct = await fetch(`${rig.base}/ui/`);
    expect(direct.status).toBe(401);
    await page.context().close();
  });
});
