// A new user's paths through the window, in real Chromium against a real `mws serve`: the first-run
// screen and "Import servers" (from client configs in a throwaway home folder), the approvals inbox
// across agents, and every form given bad input. Any uncaught page error or console error fails the
// test. The README's screenshots (light and dark) are taken here, so they stay current.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import { ROOT, deadPort, startHttpFixture, stdioFixture, type HttpFixture } from '../helpers/processes.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';

/**
 * Screenshots the README shows: `npm run screenshots` rewrites docs/screens; an ordinary test run takes
 * the same pictures into test-results/, so running the tests never leaves the work tree changed.
 */
const DOCS = process.env.MWS_UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'screens') : join(ROOT, 'test-results', 'docs-screens');
const SLOW = { timeout: 120_000 };

type Instance = WindowServe;
let browser: Browser;
let fixture: HttpFixture;
let fresh: Instance;
let busy: Instance;
let home: string;
const problems: string[] = [];
const clients: TestClient[] = [];

function start(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  return serveWithWindow(raw, { browser, prepare: () => env });
}

/** A page signed in through a one-time link, that records every page error and console error. */
async function open(
  inst: Instance,
  hash: string,
  colorScheme: 'light' | 'dark' = 'light',
  before: (page: Page) => Promise<unknown> = async () => {},
): Promise<Page> {
  return inst.openWindow(undefined, {
    colorScheme,
    hash,
    before: async (page) => {
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        // A refused edit is an HTTP 400 that the browser logs by itself; the page shows it at the field.
        if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 400/.test(m.text()))
          problems.push(`console error: ${m.text()}`);
      });
      await before(page);
    },
  });
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  mkdirSync(DOCS, { recursive: true });
  browser = await launchChromium();
  fixture = await startHttpFixture('stateless');
  // A home folder with a Cursor and a Claude Code config whose servers are local fixtures.
  home = tempDir('mws-home-');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  writeFileSync(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify(
      { mcpServers: { fixture: { url: fixture.url }, 'Notes App': { command: 'notes-mcp', env: { NOTES_TOKEN: 'n_SECRET' } } } },
      null,
      2,
    ),
  );
  const stdio = stdioFixture();
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify(
      {
        numStartups: 3,
        mcpServers: { local: { type: 'stdio', command: stdio.command, args: stdio.args, env: { LOCAL_KEY: 'l_SECRET' } } },
      },
      null,
      2,
    ),
  );
  [fresh, busy] = await Promise.all([
    start({ serverName: 'toolbox' }, { HOME: home }),
    start({ upstreams: { demo: { builtin: 'demo' } }, agents: [{ id: 'default' }, { id: 'codex', name: 'Codex' }] }),
  ]);
});

afterEach(() => {
  const seen = problems.splice(0);
  expect(seen, 'the window threw or logged an error').toEqual([]);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await fresh?.stop();
  await busy?.stop();
  await fixture?.kill();
  await browser?.close();
});

describe('a new user', () => {
  it('is offered the import on first run, moves servers in, and gets the client edit', SLOW, async () => {
    const page = await open(fresh, '#/agents');
    await page.getByTestId('first-run').waitFor();
    await page.getByRole('button', { name: 'Import servers from your clients' }).click();
    const sources = page.getByTestId('import-source');
    await expect.poll(() => sources.count()).toBe(2);
    const cursor = page.getByRole('region', { name: 'Cursor servers' });
    expect(await cursor.textContent()).toContain('NOTES_TOKEN');
    expect(await page.locator('body').textContent()).not.toMatch(/n_SECRET|l_SECRET/);
    expect(await cursor.textContent()).toContain('as notes-app');
    for (const scheme of ['light', 'dark'] as const) {
      const shot = scheme === 'light' ? page : await open(fresh, '#/import', 'dark');
      await shot.getByTestId('import-source').first().waitFor();
      await shot.screenshot({ path: join(DOCS, `import-${scheme}.png`), fullPage: true });
      if (shot !== page) await shot.close();
    }
    // Only the fixture from Cursor: Notes App's command does not exist here.
    await cursor.getByLabel('Import Notes App').uncheck();
    await cursor.getByRole('button', { name: 'Add 1 server' }).click();
    const result = cursor.getByTestId('import-result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Added 1 upstream: fixture\..*backed up to/s);
    expect(await cursor.getByTestId('client-edit').textContent()).toContain(`"toolbox": {\n      "url": "${fresh.base}/mcp"`);
    // Claude Code's server, with the client file rewritten for us (after a backup).
    const claude = page.getByRole('region', { name: 'Claude Code servers' });
    await claude.getByText(/Also rewrite Claude Code's file/).click();
    await claude.getByRole('button', { name: 'Add 1 server' }).click();
    await claude.getByTestId('import-result').waitFor();
    expect(await claude.getByTestId('import-result').textContent()).toMatch(
      /the file was rewritten; the old one is .*\.claude\.json\..*\.bak/,
    );
    expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers).toEqual({
      toolbox: { type: 'http', url: `${fresh.base}/mcp` },
    });
    // The key went to the secret store: config.json names it by reference.
    expect(JSON.parse(readFileSync(fresh.cfg, 'utf8')).upstreams).toEqual({
      fixture: { url: fixture.url },
      local: { ...stdioFixture(), env: { LOCAL_KEY: '${secret:upstreams.local.env.LOCAL_KEY}' } },
    });
    expect(readFileSync(fresh.cfg, 'utf8')).not.toContain('l_SECRET');
    // The running instance serves both at once; the first-run card is gone.
    await page.getByRole('button', { name: 'Upstreams', exact: true }).click();
    await expect.poll(() => page.getByTestId('tools-fixture').textContent(), { timeout: 20_000 }).toBe('8');
    // The upstream's row opens to its tools, with their kinds.
    await page.getByRole('button', { name: 'Show the tools of fixture' }).click();
    await expect
      .poll(() => page.getByTestId('tool-list-fixture').textContent())
      .toMatch(/fixture__echo\s*read-only\s*—\s*Echo the text back\./);
    await page.getByRole('button', { name: 'Agents', exact: true }).click();
    expect(await page.getByTestId('first-run').count()).toBe(0);
    await page.close();
  });

  it('meets readable messages at the field on every form', SLOW, async () => {
    // The bounds arrive only after the first refusal (a busy instance answers late): the refusal waits for them.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const page = await open(fresh, '#/agents/default', 'light', (p) =>
      p.route('**/control/settings', async (route) => {
        await held;
        await route.continue();
      }),
    );
    // Agent form: an emptied cap, then an idle window of 0.
    await page.getByLabel('Cap', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    release();
    await page.getByTestId('error-cap').waitFor();
    // Refused by the argument check (a blank is not a number); the window adds the schema's bounds, as its label has them.
    expect(await page.getByTestId('error-cap').textContent()).toBe(
      'Give the cap: how many tools the agent lists, a whole number from 1 to 500.',
    );
    expect(await page.getByText('Cap (1–500)').count()).toBe(1);
    await page.getByLabel('Cap', { exact: true }).fill('20');
    await page.getByLabel('Idle window', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await page.getByTestId('error-idleWindowDays').textContent()).toMatch(
      /^The idle window is a number of days from 1 to 3650 \(not 0\)/,
    );
    // New agent with an id that is not a slug.
    await page.getByLabel('New agent id').fill('My Agent');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.getByTestId('error-id').textContent()).toBe(
      'An id may use lowercase letters, digits and dashes (up to 48), and starts with a letter or digit — for example "codex".',
    );

    // Upstream form: empty URL, a bad name, a mistyped command, nothing listening.
    await page.getByRole('button', { name: 'Upstreams', exact: true }).click();
    await page.getByRole('button', { name: 'Test' }).click();
    expect(await page.getByTestId('error-url').textContent()).toBe("Give the server's URL, for example http://127.0.0.1:4483/mcp.");
    expect(await page.getByRole('button', { name: 'Test' }).isEnabled()).toBe(true); // not stuck at "Testing…"
    await page.getByLabel('Upstream name').fill('My Mail');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${await deadPort()}/mcp`);
    await page.getByRole('button', { name: 'Add' }).click();
    expect(await page.getByTestId('error-vendor').textContent()).toMatch(/^A name may use lowercase letters, digits and dashes/);
    await page.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => page.getByTestId('test-result').textContent(), { timeout: 20_000 })
      .toMatch(/^Failed: Nothing answers at http:\/\/127\.0\.0\.1:\d+\/mcp\. Check that the server is running/);
    await page.getByLabel('Kind').selectOption('stdio');
    await page.getByLabel('Command').fill('mcp-server-everythin');
    await page.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => page.getByTestId('test-result').textContent(), { timeout: 20_000 })
      .toBe('Failed: The command `mcp-server-everythin` was not found. Check the spelling, or give its full path.');

    // General: a port out of range.
    await page.getByRole('button', { name: 'General' }).click();
    await page.getByLabel('Port').fill('70000');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.getByTestId('error-port').textContent()).toBe(
      'The port is a whole number from 0 to 65535 (not 70000); 0 picks a free one.',
    );
    const body = (await page.locator('body').textContent()) ?? '';
    expect(body).not.toMatch(/config field|ENOENT|fetch failed/);
    await page.close();
  });
});

describe('signing in', () => {
  it("sends / to the window's sign-in page, and a reused link to a styled page that says what to do", SLOW, async () => {
    const page = await browser.newPage({ colorScheme: 'dark' });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const res = await page.goto(`${busy.base}/`);
    expect(new URL(page.url()).pathname).toBe('/ui/');
    expect(res?.status()).toBe(401);
    expect(await page.locator('h1').textContent()).toBe('Sign in to Working Set');
    expect(await page.textContent('body')).toMatch(/one-time link.*mws ui/s);
    const token = readFileSync(join(busy.stateDir, 'control-token'), 'utf8').trim();
    const { url } = await httpControlClient(busy.base, token).uiLink({});
    const first = await browser.newPage();
    await first.goto(url);
    await first.getByTestId('status').waitFor();
    await first.close();
    const again = await page.goto(url);
    expect(again?.status()).toBe(401);
    expect(await page.locator('h1').textContent()).toBe('This link has expired');
    expect(await page.textContent('body')).toMatch(/Run mws ui for a new one/);
    await page.screenshot({ path: join(DOCS, 'expired-dark.png') });
    await page.close();
  });
});

describe('the approvals inbox', () => {
  it("collects every agent's waiting calls, answers them, and withdraws a standing grant", SLOW, async () => {
    const main = await connectClient(`${busy.base}/mcp`, 'auto', 'inbox-main');
    const codex = await connectClient(`${busy.base}/mcp/codex`, 'legacy', 'inbox-codex');
    clients.push(main, codex);
    const page = await open(busy, '#/agents/default');
    const sent = main.client.callTool({
      name: 'demo__mail_send_message',
      arguments: { to: ['dana@example.com'], subject: 'Launch', body: 'It slipped a week.' },
    });
    const deleted = codex.client.callTool({ name: 'demo__drive_delete_file', arguments: { fileId: 'f-42' } });
    await expect
      .poll(() =>
        page
          .getByTestId('inbox-badge')
          .textContent()
          .catch(() => ''),
      )
      .toBe('2 waiting for approval');
    expect(await page.getByTestId('waiting-codex').textContent()).toBe('1 waiting');
    await page.getByTestId('inbox-badge').click();
    const cards = page.getByTestId('pending');
    await expect.poll(() => cards.count()).toBe(2);
    const mail = cards.filter({ hasText: 'demo__mail_send_message' });
    expect(await mail.textContent()).toMatch(
      /Default\s*demo__mail_send_message\s*write.*waited \d+ s · \d+ (s|min) left.*send an email.*dana@example\.com/s,
    );
    expect(await cards.filter({ hasText: 'demo__drive_delete_file' }).textContent()).toMatch(
      /Codex\s*demo__drive_delete_file\s*destructive/,
    );
    for (const scheme of ['light', 'dark'] as const) {
      const shot = scheme === 'light' ? page : await open(busy, '#/inbox', 'dark');
      await shot.getByTestId('pending').first().waitFor();
      await shot.screenshot({ path: join(DOCS, `inbox-${scheme}.png`), fullPage: true });
      if (shot !== page) await shot.close();
    }
    await page.getByRole('button', { name: 'Deny demo__drive_delete_file' }).click();
    expect(textOf(await deleted)).toMatch(/did not allow demo__drive_delete_file/);
    await page.getByRole('button', { name: 'Always allow demo__mail_send_message for Default' }).click();
    expect(textOf(await sent)).toContain('"ok":true');
    await page.getByTestId('inbox-empty').waitFor();
    expect(await page.getByTestId('inbox-badge').count()).toBe(0);
    const grants = page.getByTestId('grants-default');
    await grants.locator('tr[data-tool="demo__mail_send_message"]').waitFor();
    await page.getByRole('button', { name: 'Withdraw demo__mail_send_message for Default' }).click();
    await grants.waitFor({ state: 'detached' });
    // Withdrawn: the next call asks again, and "Allow once" runs it without a grant.
    const again = main.client.callTool({
      name: 'demo__mail_send_message',
      arguments: { to: ['lee@example.com'], subject: 'Hi', body: 'x' },
    });
    await page.getByRole('button', { name: 'Allow demo__mail_send_message once' }).click();
    expect(textOf(await again)).toContain('"ok":true');
    expect(await page.getByText('No tool is allowed without asking yet.').count()).toBe(1);
    // The search playground tags its hits and cuts descriptions at a word.
    await page.getByRole('button', { name: 'Search playground' }).click();
    await page.getByLabel('Query').fill('delete a file');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('hits').locator('tbody tr').first().textContent())
      .toMatch(/^1demo__drive_delete_filedestructive/);
    await page.close();
  });

  it('shows a call that began waiting while the window was still opening its event stream', SLOW, async () => {
    // The stream is held until the call waits: the window read the inbox before that, and the event
    // was sent before it listened. It reads again when the stream opens (and after any reconnect).
    const held: Array<() => Promise<void>> = [];
    const page = await open(busy, '#/agents/default', 'light', (p) =>
      p.route(/\/control\/events/, (route) => void held.push(() => route.continue())),
    );
    await expect.poll(() => held.length, { message: 'the window asked for its event stream' }).toBeGreaterThan(0);
    const api = busy.control();
    const early = await connectClient(`${busy.base}/mcp`, 'auto', 'inbox-early');
    clients.push(early);
    const sent = early.client.callTool({
      name: 'demo__mail_send_message',
      arguments: { to: ['kim@example.com'], subject: 'Early', body: 'x' },
    });
    await expect.poll(async () => (await api.pendingApprovals({ agent: 'default' })).length, { message: 'the call waits' }).toBe(1);
    for (const go of held.splice(0)) await go();
    await expect
      .poll(
        () =>
          page
            .getByTestId('inbox-badge')
            .textContent({ timeout: 1_000 })
            .catch(() => ''),
        { message: 'the window shows the call that waited before its stream opened' },
      )
      .toBe('1 waiting for approval');
    await api.approve({ agent: 'default', tool: 'demo__mail_send_message', deny: true });
    expect(textOf(await sent)).toMatch(/did not allow demo__mail_send_message/);
    await page.close();
  });

  it('shows the agent page with its endpoint (README screenshots) and deletes an agent without errors', SLOW, async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open(busy, '#/agents/codex', scheme);
      await page
        .getByText('Endpoint')
        .first()
        .waitFor()
        .catch(() => {});
      await page.screenshot({ path: join(DOCS, `agent-${scheme}.png`), fullPage: true });
      await page.close();
    }
    const page = await open(busy, '#/agents/default');
    await page.getByLabel('New agent id').fill('scratch');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Delete agent' }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete agent' }).click();
    await expect.poll(() => page.locator('[data-testid="size-scratch"]').count()).toBe(0);
    await page.close();
  });
});
