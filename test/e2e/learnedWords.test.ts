// The window's learned words in a real browser (Debian's Chromium) against a real `mws serve`: an
// agent searches, then calls a tool; the Search screen shows the words that tool was learned for, a
// word's × forgets that word alone, and "Forget" drops them all (and search stops ranking with them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { modelSettled } from '../helpers/model.js';
import { httpControlClient } from '../../src-main/core/control/transport/http.js';
import { ROOT, spawnTs, type Running, listeningBase } from '../helpers/processes.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
let browser: Browser;
let serve: Running;
let stateDir: string;
let base: string;
let agentClient: TestClient;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  browser = await launchChromium();
  const dir = tempDir();
  const cfg = join(dir, 'config.json');
  stateDir = join(dir, 'state');
  writeFileSync(
    cfg,
    JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir, listen: { port: 0 }, timeouts: { listMs: 20_000 } }),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg]);
  base = await listeningBase(serve);
  agentClient = await connectClient(`${base}/mcp`, 'auto', 'e2e-learn');
});

afterAll(async () => {
  await agentClient?.close();
  await serve?.kill();
  await browser?.close();
});

describe('learned words in the window', () => {
  it('shows per tool the words a search→call taught it, and forgets them', async () => {
    const first = async () =>
      (
        JSON.parse(
          textOf(await agentClient.client.callTool({ name: 'search_tools', arguments: { query: 'buy a monitor on a web page' } })),
        ) as { results: Array<{ name: string }> }
      ).results[0]?.name;
    // Ranks are compared once the sentence model has read every tool (the first search starts it).
    const api = httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim());
    await first();
    await modelSettled(api);
    const before = await first();
    for (let i = 0; i < 2; i++) {
      await first();
      const r = await agentClient.client.callTool({ name: 'call_tool', arguments: { name: 'demo__browser_get_page_text', arguments: {} } });
      expect(r.isError).not.toBe(true);
    }
    expect(await first()).toBe('demo__browser_get_page_text');

    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    const page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto((await httpControlClient(base, token).uiLink({})).url);
    await page.evaluate(() => (location.hash = '#/search'));
    const row = page.getByTestId('learned-demo__browser_get_page_text');
    await expect.poll(() => row.textContent()).toContain('monitor');
    expect(await row.textContent()).toContain('buy');
    // The × of one word forgets only that word of that tool; the tool keeps its other words.
    await page.getByRole('button', { name: 'Forget "monitor" for demo__browser_get_page_text' }).click();
    await page.getByRole('status').filter({ hasText: 'Forgot "monitor" for demo__browser_get_page_text (2 searches changed).' }).waitFor();
    await expect.poll(() => row.textContent()).not.toContain('monitor');
    expect(await row.textContent()).toContain('buy');
    await page.getByRole('button', { name: 'Forget the words of demo__browser_get_page_text' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Forgot \d+ searches that led to demo__browser_get_page_text/ })
      .waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await page.close();
    expect(await first()).toBe(before);
  });
});
