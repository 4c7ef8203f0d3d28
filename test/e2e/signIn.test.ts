// Signing in from the window, in a real browser (Debian's Chromium) against a real `mws serve` whose
// upstream is the OAuth fixture: the row says "needs sign-in"; Sign in opens the authorization
// server in a new tab, which consents and lands on /oauth/callback; the row then says Signed in, and
// Sign out returns it to needs sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth/server.js';

let w: WindowServe;
let fixture: OAuthFixture;

beforeAll(async () => {
  fixture = await startOAuthFixture(() => Date.now());
  w = await serveWithWindow({ upstreams: { secure: { url: fixture.url } } });
});

afterAll(async () => {
  await w?.stop();
  await fixture?.close();
});

describe('the Upstreams row of an OAuth upstream', () => {
  it('signs in through a browser tab that lands on /oauth/callback, and signs out', async () => {
    const context = await w.browser.newContext({ viewport: { width: 1200, height: 860 } });
    const page = await w.openWindow({ width: 1200, height: 860 }, { context });
    await page.evaluate(() => (location.hash = '#/upstreams'));
    const status = page.getByTestId('status-secure');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('needs sign-in');

    const tab = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const opened = await tab;
    // The authorization server consents at once and redirects to the instance's own callback.
    await opened.waitForURL(/\/oauth\/callback\?/, { timeout: 20_000 });
    await expect.poll(() => opened.textContent('h1'), { timeout: 20_000 }).toBe('Signed in to secure');
    await opened.close();

    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('up');
    await expect.poll(() => page.getByTestId('signed-in-secure').textContent()).toBe('Signed in');
    // The note that asked to finish in the browser does not stay under "Signed in".
    await expect.poll(() => page.getByTestId('sign-in-note').textContent()).toBe('Signed in to secure.');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByTestId('sign-in-note').filter({ hasText: 'Signed out of secure; the server revoked the tokens.' }).waitFor();
    await expect.poll(() => status.textContent()).toBe('needs sign-in');
    await context.close();
  });

  for (const width of [1280, 800]) {
    it(`Reset sign-in recovers after the server forgot its clients, at ${width} px`, async () => {
      const context = await w.browser.newContext({ viewport: { width, height: 860 } });
      const page = await w.openWindow({ width, height: 860 }, { context, before: async (p) => p.on('dialog', (d) => void d.accept()) });
      await page.evaluate(() => (location.hash = '#/upstreams'));
      const status = page.getByTestId('status-secure');
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('needs sign-in');
      fixture.forgetClients();
      const reset = page.getByRole('button', { name: 'Reset the sign-in to secure' });
      // Within the window: the button is not pushed off the row at this width.
      const box = (await reset.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const tab = context.waitForEvent('page');
      await reset.click();
      const opened = await tab;
      await opened.waitForURL(/\/oauth\/callback\?/, { timeout: 20_000 });
      await expect.poll(() => opened.textContent('h1'), { timeout: 20_000 }).toBe('Signed in to secure');
      await opened.close();
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('up');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('needs sign-in');
      await context.close();
    });
  }
});
