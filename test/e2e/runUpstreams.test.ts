// The window at 1280 and 800 px against a real `mws serve`: upstreams turned off and on, restarted,
// their log read; the activity log; Edit bringing its form into view; no sideways scrolling on
// Upstreams and Import; the status dot never green with nothing served; a destructive call's
// "Allow once" not the primary button; an agent token masked in the client snippets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, stdioFixture } from '../helpers/processes.js';
import { connectClient, type TestClient } from '../helpers/app.js';
import { SCREENS } from '../helpers/browser.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';

let w: WindowServe;
let agent: TestClient;
const BOT_TOKEN = 'bot-token-0123456789abcdef';
/** A long command, as real ones are (npx with a scoped package and flags): it must wrap, not widen the table. */
const longArgs = [...stdioFixture().args, '--a-very-long-flag-that-real-servers-have=/home/someone/projects/with/a/deep/path/and-more'];
const failing = { command: process.execPath, args: ['-e', "console.error('GITHUB_TOKEN is not set'); process.exit(1)"] };

async function open(hash: string, width: number, height = 800): Promise<Page> {
  const page = await w.openWindow({ width, height });
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('status').waitFor();
  return page;
}
/** How far the page scrolls sideways: 0 when everything fits the window's width. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

beforeAll(async () => {
  w = await serveWithWindow(
    {
      upstreams: { demo: { builtin: 'demo' }, s: { command: process.execPath, args: longArgs }, bad: failing },
      agents: [{ id: 'default' }, { id: 'bot', token: BOT_TOKEN }],
    },
    (dir) => {
      const home = join(dir, 'home');
      cpSync(join(ROOT, 'test', 'fixtures', 'import', 'home'), home, { recursive: true });
      return { HOME: home };
    },
  );
  agent = await connectClient(`${w.base}/mcp`, 'auto', 'e2e-run');
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await w?.stop();
});

describe.each([1280, 800])('the window at %i px', (width) => {
  it('fits Upstreams and Import without scrolling sideways', async () => {
    const page = await open('#/upstreams', width);
    await page.locator('tr[data-vendor="s"]').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENS, `upstreams-${width}.png`), fullPage: true });
    await page.evaluate(() => (location.hash = '#/import'));
    await page.getByText('Codex').first().waitFor({ timeout: 20_000 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.close();
  }, 60_000);

  it('opens Edit with its form in view and the cursor in it', async () => {
    const page = await open('#/upstreams', width, 600);
    await page.locator('tr[data-vendor="s"]').getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('region', { name: 'Edit upstream' });
    await expect
      .poll(() =>
        form.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.top < window.innerHeight;
        }),
      )
      .toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Command');
    await page.close();
  });

  it('hides one tool of an upstream with its Shown switch, and shows it again', async () => {
    const page = await open('#/upstreams', width);
    const row = page.locator('tr[data-vendor="s"]');
    await expect.poll(() => page.getByTestId('status-s').textContent(), { timeout: 30_000 }).toBe('up');
    await row.getByRole('button', { name: 'Show the tools of s' }).click();
    const shown = page.getByTestId('shown-s__echo');
    await expect.poll(() => shown.isChecked(), { timeout: 10_000 }).toBe(true);
    const found = async () =>
      JSON.stringify(await agent.client.callTool({ name: 'search_tools', arguments: { query: 'echo the text back' } }));
    expect(await found()).toContain('s__echo');
    await shown.uncheck();
    await expect.poll(() => page.getByTestId('tool-row-s__echo').getAttribute('class')).toContain('hidden-tool');
    expect(JSON.parse(readFileSync(w.cfg, 'utf8')).hiddenTools).toEqual({ s: ['echo'] });
    await expect.poll(found).not.toContain('s__echo');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENS, `hidden-tool-${width}.png`), fullPage: true });
    await shown.check();
    await expect.poll(() => page.getByTestId('tool-row-s__echo').getAttribute('class')).not.toContain('hidden-tool');
    expect(JSON.parse(readFileSync(w.cfg, 'utf8')).hiddenTools).toBeUndefined();
    await expect.poll(found).toContain('s__echo');
    await page.close();
  }, 60_000);
});

describe('running upstreams from the window', () => {
  it('turns one off and on, restarts it, and shows its log', async () => {
    const page = await open('#/upstreams', 1280);
    const row = page.locator('tr[data-vendor="s"]');
    await expect.poll(() => page.getByTestId('status-s').textContent(), { timeout: 30_000 }).toBe('up');
    await row.getByRole('button', { name: 'Turn s off' }).click();
    await expect.poll(() => page.getByTestId('status-s').textContent()).toBe('off');
    expect(JSON.parse(readFileSync(w.cfg, 'utf8')).upstreams.s.enabled).toBe(false);
    await expect.poll(async () => (await agent.client.listTools()).tools.map((t) => t.name)).not.toContain('s__whoami');
    await row.getByRole('button', { name: 'Turn s on' }).click();
    await expect.poll(() => page.getByTestId('status-s').textContent(), { timeout: 30_000 }).toBe('up');
    await row.getByRole('button', { name: 'Restart s' }).click();
    await row.getByRole('button', { name: 'Show the log of s' }).click();
    await expect.poll(() => page.getByTestId('log-s').textContent(), { timeout: 30_000 }).toContain('restart asked by the user');
    await page.locator('tr[data-vendor="bad"]').getByRole('button', { name: 'Show the log of bad' }).click();
    await expect.poll(() => page.getByTestId('log-bad').textContent(), { timeout: 30_000 }).toContain('GITHUB_TOKEN is not set');
    await page.screenshot({ path: join(SCREENS, 'upstream-log.png'), fullPage: true });
    await page.close();
  }, 90_000);

  it.each([1280, 800])('lists calls in the activity log at %i px, refused ones too, each failure with its reason', async (width) => {
    await agent.client.callTool({ name: 'demo__drive_search_files', arguments: { query: 'budget' } });
    // Refused before running: arguments that do not fit, and a name no upstream lists.
    await agent.client.callTool({ name: 'demo__drive_search_files', arguments: { query: 5 } });
    await agent.client.callTool({ name: 'call_tool', arguments: { name: `no_such_tool_${width}` } });
    const page = await open('#/activity', width);
    await expect.poll(() => page.getByTestId('activity').textContent(), { timeout: 20_000 }).toContain(`no_such_tool_${width}`);
    const reasons = await page.getByTestId('reason').allTextContents();
    expect(reasons.some((r) => r.startsWith(`No tool named "no_such_tool_${width}".`))).toBe(true);
    expect(reasons.some((r) => /arguments for demo__drive_search_files do not match/.test(r))).toBe(true);
    expect(await page.getByTestId('outcome').allTextContents()).toContain('refused');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENS, `activity-${width}.png`), fullPage: true });
    await page.close();
  });
});

describe('words and buttons', () => {
  it('does not make "Allow once" the primary button on a destructive call', async () => {
    const call = agent.client.callTool({ name: 'demo__drive_delete_file', arguments: { fileId: 'f-1' } });
    const page = await open('#/inbox', 1280);
    const once = page.getByTestId('allow-once');
    await once.waitFor({ timeout: 20_000 });
    expect(await once.getAttribute('class')).toContain('ghost');
    await page.getByRole('button', { name: 'Deny demo__drive_delete_file' }).click();
    expect((await call).isError).toBe(true);
    await page.close();
  });

  it('shows an agent token masked in the client snippets', async () => {
    const page = await open('#/agents/bot', 1280);
    await page.getByTestId('snippet').waitFor();
    expect(await page.getByTestId('snippet').textContent()).toContain('Bearer ••••');
    expect(await page.content()).not.toContain(BOT_TOKEN);
    await page.close();
  });

  it('does not show the dot green when nothing is served (every upstream off)', async () => {
    const page = await open('#/upstreams', 1280);
    const api = w.control();
    for (const v of ['demo', 's', 'bad']) await api.setUpstreamEnabled({ vendor: v, enabled: false });
    await expect
      .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
      .toMatch(/3 upstreams off · no tools · 4 meta-tools/);
    expect(await page.getByTestId('status-dot').getAttribute('class')).not.toMatch(/\bok\b/);
    for (const v of ['demo', 's', 'bad']) await api.setUpstreamEnabled({ vendor: v, enabled: true });
    await page.close();
  }, 60_000);
});
