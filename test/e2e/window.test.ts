// The settings window in a real browser (Debian's Chromium) against a real `mws serve` in front of
// real upstreams: every main job of the window, with a screenshot of each main screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startHttpFixture, type HttpFixture } from '../helpers/processes.js';
import { connectClient, textOf, type TestClient } from '../helpers/app.js';
import { SCREENS } from '../helpers/browser.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';

let w: WindowServe;
let fixture: HttpFixture;
let agentClient: TestClient;

/** A fresh page logged in through a one-time link, on `hash`. */
const open = (hash = '#/agents'): Promise<Page> => w.openWindow(undefined, { hash });

beforeAll(async () => {
  fixture = await startHttpFixture('stateless');
  w = await serveWithWindow({ upstreams: { demo: { builtin: 'demo' } } });
  agentClient = await connectClient(`${w.base}/mcp`, 'auto', 'e2e-agent');
});

afterAll(async () => {
  await agentClient?.close();
  await w?.stop();
  await fixture?.kill();
});

describe('the settings window', () => {
  it("saves an agent's cap, refuses a bad one with the reason, and keeps it after a restart", async () => {
    let page = await open('#/agents/default');
    await page.getByLabel('Cap', { exact: true }).fill('900');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('error-cap').waitFor();
    expect(await page.getByTestId('error-cap').textContent()).toBe(
      'The cap is how many tools the agent lists: a whole number from 1 to 500 (not 900).',
    );
    await page.getByLabel('Cap', { exact: true }).fill('7');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. Cap and idle window take effect at the next sweep.').waitFor();
    await expect.poll(() => page.getByTestId('size-default').textContent()).toBe('0 / 7');
    await page.close();

    await agentClient.close();
    await w.restart();
    agentClient = await connectClient(`${w.base}/mcp`, 'auto', 'e2e-agent');
    page = await open('#/agents/default');
    await expect.poll(() => page.getByLabel('Cap', { exact: true }).inputValue()).toBe('7');
    await page.screenshot({ path: join(SCREENS, 'agents.png'), fullPage: true });
    await page.close();
  }, 120_000); // restarts `mws serve`: seconds each on a busy machine

  it('shows promotions and demotions live in the working-set table and the history', async () => {
    const page = await open('#/agents/default');
    const table = page.getByTestId('working-set');
    const history = page.getByTestId('history');
    // The agent promotes a tool over MCP: the open window updates without a reload.
    await agentClient.client.callTool({ name: 'promote', arguments: { name: 'drive_search_files' } });
    await table.locator('tr[data-tool="demo__drive_search_files"]').waitFor();
    await expect.poll(() => history.textContent()).toMatch(/demo__drive_search_files\s*promoted\s*the agent asked/);
    // The user promotes from the search box, then demotes from the table.
    await page.getByLabel('Promote from search').fill('take a screenshot');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Promote demo__browser_take_screenshot' }).click();
    await table.locator('tr[data-tool="demo__browser_take_screenshot"]').waitFor();
    await page.getByRole('button', { name: 'Demote demo__drive_search_files' }).click();
    await table.locator('tr[data-tool="demo__drive_search_files"]').waitFor({ state: 'detached' });
    await expect.poll(() => history.textContent()).toMatch(/demo__drive_search_files\s*demoted\s*you/);
    expect((await agentClient.client.listTools()).tools.map((t) => t.name)).toContain('demo__browser_take_screenshot');
    await page.screenshot({ path: join(SCREENS, 'working-set.png'), fullPage: true });
    await page.close();
  });

  it('lets the user allow a pending call, which then completes', async () => {
    const page = await open('#/agents/default');
    const call = agentClient.client.callTool({
      name: 'demo__mail_send_message',
      arguments: { to: ['dana@example.com'], subject: 'Launch', body: 'It slipped a week.' },
    });
    const pending = page.getByTestId('pending');
    // A deadline for a loaded 2-core machine (seen once past Playwright's default 30 s with both cores busy).
    await pending.waitFor({ timeout: 90_000 });
    expect(await pending.textContent()).toContain('dana@example.com');
    await page.screenshot({ path: join(SCREENS, 'approval.png'), fullPage: true });
    await page.getByRole('button', { name: 'Always allow demo__mail_send_message for Default' }).click();
    expect(textOf(await call)).toContain('"ok":true');
    await pending.waitFor({ state: 'detached' });
    await page.close();
  }, 150_000);

  it('adds an upstream, tests it first, and shows its tools', async () => {
    const page = await open('#/upstreams');
    await page.getByLabel('Upstream name').fill('fix');
    await page.getByLabel('URL').fill(fixture.url);
    await page.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => page.getByTestId('test-result').textContent(), { timeout: 30_000 })
      .toMatch(/Connected \(2026-07-28\): 8 tools/);
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.getByTestId('tools-fix').textContent(), { timeout: 10_000 }).toBe('8');
    const r = await agentClient.client.callTool({ name: 'search_tools', arguments: { query: 'fix__echo' } });
    expect(textOf(r)).toContain('"name":"fix__echo"');
    await page.screenshot({ path: join(SCREENS, 'upstreams.png'), fullPage: true });
    await page.close();
  });

  it('shows the exact search reply with its size, the report and the general settings', async () => {
    let page = await open('#/search');
    await page.getByLabel('Query').fill('share a file');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('reply').textContent()).toContain('demo__drive_share_file');
    expect(await page.getByTestId('reply-size').textContent()).toMatch(/^\d+ bytes/);
    await page.screenshot({ path: join(SCREENS, 'search.png'), fullPage: true });
    await page.close();

    page = await open('#/report');
    await expect.poll(() => page.getByTestId('report-default').textContent()).toMatch(/tokens listed .* against .* for the whole toolbox/);
    await page.getByRole('img', { name: 'Calls and searches per day' }).waitFor();
    await page.screenshot({ path: join(SCREENS, 'report.png'), fullPage: true });
    await page.close();

    page = await open('#/general');
    // Headless there are no notifications and no login item: those switches are the desktop app's own
    // preferences (docs/guide/desktop.md), neither offered here nor written into the config.
    await page.getByRole('button', { name: 'Save' }).waitFor();
    expect(await page.getByText('Start at login').count()).toBe(0);
    expect(await page.getByText('Notify when tools are demoted').count()).toBe(0);
    await page.getByText('Compact descriptions').click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = JSON.parse(readFileSync(w.cfg, 'utf8')) as Record<string, unknown>;
    expect(saved.compactDescriptions).toBe(true);
    expect(saved.desktop).toBeUndefined();
    await page.screenshot({ path: join(SCREENS, 'general.png'), fullPage: true });
    await page.close();

    const dark = await w.openWindow(undefined, { colorScheme: 'dark', hash: '#/agents' });
    await dark.screenshot({ path: join(SCREENS, 'agents-dark.png'), fullPage: true });
    await dark.close();
  });

  it('keeps unsaved edits of the general settings when the settings change elsewhere, and saves only what was edited', async () => {
    const page = await open('#/general');
    const sessions = page.getByLabel('Minimum sessions');
    const compact = page.getByText('Compact descriptions').locator('input');
    await sessions.waitFor();
    const before = await w.control().settings({});
    await sessions.fill('7');
    // Another window (here the control API) saves another field meanwhile: the form shows it, keeps the
    // edit, and has nothing to warn about.
    await w.control().updateSettings({ compactDescriptions: !before.compactDescriptions });
    await expect.poll(() => compact.isChecked()).toBe(!before.compactDescriptions);
    expect(await sessions.inputValue()).toBe('7');
    expect(await page.getByTestId('changed-elsewhere').count()).toBe(0);
    // The field being edited is saved elsewhere too: that is named.
    await w.control().updateSettings({ promote: { minSessions: before.promote.minSessions + 1 } });
    await page.getByTestId('changed-elsewhere').filter({ hasText: 'minimum sessions' }).waitFor();
    expect(await sessions.inputValue()).toBe('7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const after = await w.control().settings({});
    expect(after.promote.minSessions).toBe(7);
    expect(after.compactDescriptions).toBe(!before.compactDescriptions);
    expect(await page.getByTestId('changed-elsewhere').count()).toBe(0);
    // Saved, the form follows the core again.
    await w.control().updateSettings({ compactDescriptions: before.compactDescriptions });
    await expect.poll(() => compact.isChecked()).toBe(before.compactDescriptions);
    await w.control().updateSettings({ promote: { ...before.promote } });
    await page.close();
  });

  it('opens the event stream again when a reconnection is refused (the cookie pushed out), and follows the core again', async () => {
    let streams = 0;
    const page = await w.openWindow(undefined, {
      hash: '#/general',
      before: (p) =>
        p.route('**/control/events**', async (route) => {
          streams++;
          // The first stream ends at once (a lost connection: EventSource reconnects by itself); the
          // reconnection finds the cookie pushed out and is refused, which closes an EventSource for good.
          if (streams === 1) return route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 50\n\n: connected\n\n' });
          if (streams === 2) {
            await p.context().clearCookies();
            return route.fulfill({ status: 401, body: 'refused' });
          }
          return route.continue();
        }),
    });
    const compact = page.getByText('Compact descriptions').locator('input');
    await compact.waitFor();
    await expect.poll(() => streams, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    const before = await w.control().settings({});
    await w.control().updateSettings({ compactDescriptions: !before.compactDescriptions });
    await expect.poll(() => compact.isChecked(), { timeout: 20_000 }).toBe(!before.compactDescriptions);
    await w.control().updateSettings({ compactDescriptions: before.compactDescriptions });
    await expect.poll(() => compact.isChecked(), { timeout: 20_000 }).toBe(before.compactDescriptions);
    await page.close();
  });

  it('refuses the window without the one-time link', async () => {
    const page = await w.browser.newPage();
    const res = await page.goto(`${w.base}/ui/`);
    expect(res?.status()).toBe(401);
    expect(await page.textContent('body')).toMatch(/one-time link/);
    await page.close();
  });
});
