// The window's learned words in a real browser (Debian's Chromium) against a real `mws serve`: an
// agent searches, then calls a tool; the Search screen shows the words that tool was learned for, a
// word's × forgets that word alone, and "Forget" drops them all (and search stops ranking with them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelSettled } from '../helpers/model.js';
import { connectClient, textOf, type TestClient } from '../helpers/app.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';

let w: WindowServe;
let agentClient: TestClient;

beforeAll(async () => {
  w = await serveWithWindow({ upstreams: { demo: { builtin: 'demo' } } });
  agentClient = await connectClient(`${w.base}/mcp`, 'auto', 'e2e-learn');
});

afterAll(async () => {
  await agentClient?.close();
  await w?.stop();
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
    const api = w.control();
    await first();
    await modelSettled(api);
    const before = await first();
    for (let i = 0; i < 2; i++) {
      await first();
      const r = await agentClient.client.callTool({ name: 'call_tool', arguments: { name: 'demo__browser_get_page_text', arguments: {} } });
      expect(r.isError).not.toBe(true);
    }
    expect(await first()).toBe('demo__browser_get_page_text');

    const page = await w.openWindow();
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
