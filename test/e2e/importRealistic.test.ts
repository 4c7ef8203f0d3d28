// The Import screen with the configs a person really has (at 800 px the Import screen once
// overflowed to 813 px; checked before only with the small fixture files): five clients, 93 servers, long names,
// commands, URLs and env lists, a Claude Code file with twelve projects, VS Code inputs, Codex TOML,
// Working Set's own entries and a duplicate. At 1280 and 800 px nothing is wider than the window, a cut
// command keeps its whole text in a tooltip, every button stays on screen, and an import's result and
// the Upstreams screen that then holds those servers fit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';
import { writeRealisticConfigs } from '../helpers/realisticConfigs.js';

let w: WindowServe;
let written = 0;

beforeAll(async () => {
  w = await serveWithWindow({ upstreams: { demo: { builtin: 'demo' } } }, (dir) => {
    const home = join(dir, 'home');
    mkdirSync(home, { recursive: true });
    return { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), CODEX_HOME: join(home, '.codex') };
  });
  written = writeRealisticConfigs(join(w.dir, 'home'), `${w.base}/mcp`);
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

/** Whatever is wider than its box: the page, and each table against the card it sits in. */
function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the page: ${doc.scrollWidth} > ${doc.clientWidth}`);
    document.querySelectorAll('table, pre, section').forEach((el, i) => {
      const box = el.parentElement!.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'PRE')
        out.push(`${el.tagName} #${i}: scrollWidth ${el.scrollWidth} > ${el.clientWidth}`);
      if (r.right > box.right + 1 || r.right > innerWidth)
        out.push(`${el.tagName} #${i}: right edge ${Math.round(r.right)} past ${Math.round(Math.min(box.right, innerWidth))}`);
    });
    return out;
  });
}

describe.each([1280, 800])('Import with realistic configs at %i px', (width) => {
  it('fits the window, keeps each cut value in a tooltip, and every button stays reachable', async () => {
    const { url } = await w.control().uiLink({});
    const page = await w.browser.newPage({ viewport: { width, height: 600 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    try {
      await page.goto(url);
      await page.evaluate(() => (location.hash = '#/import'));
      await page.getByTestId('import-table').nth(4).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('import-source').locator('h2').allTextContents()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Claude Desktop/),
          expect.stringMatching(/^Claude Code/),
          expect.stringMatching(/^Cursor/),
          expect.stringMatching(/^VS Code/),
          expect.stringMatching(/^Codex/),
        ]),
      );
      expect(await page.locator('[data-testid^="import-row-"]').count()).toBe(written);
      expect(await overflow(page)).toEqual([]);

      // Working Set's own entries and the duplicate are shown, greyed, with the reason.
      expect(await page.getByTestId('blocked-working-set-through-mcp-remote').textContent()).toMatch(/Working Set itself/);
      expect(await page.getByTestId('blocked-toolbox').textContent()).toMatch(/Working Set itself/);
      expect(await page.getByTestId('blocked-the-same-as-desktop-1-under-a-different-name').textContent()).toMatch(/same server/);

      // A long command is cut to a few lines on screen; its whole text is the tooltip.
      const where = page.getByTestId('import-where-desktop-observability-and-incident-management-server-0').first();
      const full = (await where.getAttribute('title'))!;
      expect(full).toMatch(
        /^\/opt\/acme\/toolchains\/node-22\.11\.0\/bin\/npx -y @acme-internal-platform-engineering\/mcp-server-observability-and-incident-management-suite-0@1\.0\.0 --workspace \/home\/dana\/.+\/workspace-0 --log-level=debug$/,
      );
      expect(await where.textContent()).toBe(full);

      // Every button and checkbox is inside the window's width (reachable by scrolling down only).
      const past = await page.evaluate(
        () =>
          [...document.querySelectorAll('main button, main input, main select')]
            .map((el) => el.getBoundingClientRect())
            .filter((r) => r.width > 0 && (r.left < 0 || r.right > innerWidth)).length,
      );
      expect(past).toBe(0);

      // An import's result (the client edit to make, with long commands) fits too.
      const source = page
        .getByTestId('import-source')
        .filter({ has: page.locator('h2', { hasText: width === 800 ? /^Cursor/ : /^Codex/ }) });
      const add = source.getByRole('button', { name: /^Add \d+ servers?$/ });
      await add.scrollIntoViewIfNeeded();
      const box = (await add.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await add.click();
      await source.getByTestId('import-result').waitFor({ timeout: 30_000 });
      expect(await source.getByTestId('import-result').textContent()).toMatch(/Added \d+ upstreams/);
      expect(await overflow(page)).toEqual([]);

      // The Upstreams screen with those servers (down: their commands are not on this machine) fits too:
      // it ran past 800 px with a long command and a status sentence, its buttons off the window.
      await page.evaluate(() => (location.hash = '#/upstreams'));
      // At 800 px the Cursor servers that are the same as Codex's (imported at 1280) are not imported
      // again; its HTTP servers have their own URLs.
      const imported = width === 800 ? 'cursor-9' : 'codex-1';
      await page.getByTestId(`last-error-${imported}`).waitFor({ timeout: 30_000 });
      expect(await overflow(page)).toEqual([]);
      const buttons = await page.evaluate(
        () =>
          [...document.querySelectorAll('table[data-testid="upstreams"] button')]
            .map((el) => el.getBoundingClientRect())
            .filter((r) => r.right > innerWidth).length,
      );
      expect(buttons).toBe(0);
      const whereUp = page.getByTestId(`where-${imported}`);
      expect(await whereUp.getAttribute('title')).toBe(await whereUp.textContent());
    } finally {
      await page.close();
    }
  });
});
