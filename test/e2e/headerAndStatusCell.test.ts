// The window at 1280 and 800 px against a real `mws serve`: the header stays on one line at 1280 px
// (its controls beside the status, not under it), and an upstream's status cell keeps the end of the
// server's stderr — where the reason is — instead of cutting it off after the sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { httpControlClient } from '../../src-main/core/control/transport/http.js';
import { ROOT, spawnMws, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

let browser: Browser;
let serve: Running;
let stateDir: string;
let base: string;

/** A server that fails at start after a long stderr; its last line is the reason. */
const failing = {
  command: process.execPath,
  args: [
    '-e',
    "for (let i = 0; i < 6; i++) console.error('warning: deprecated option number ' + i + ' in /home/dana/projects/acme-platform/services/reporting/config/settings.local.yaml'); console.error('Error: DATABASE_URL is not set'); process.exit(1)",
  ],
};

async function open(width: number, hash: string): Promise<Page> {
  const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto((await httpControlClient(base, token).uiLink({})).url);
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('status').waitFor();
  return page;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  browser = await launchChromium();
  const dir = tempDir();
  const cfg = join(dir, 'config.json');
  stateDir = join(dir, 'state');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { demo: { builtin: 'demo' }, reporting: failing },
      stateDir,
      listen: { port: 0 },
      timeouts: { listMs: 5_000 },
    }),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  base = await listeningBase(serve);
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  await browser?.close();
});

describe('the header at 1280 px', () => {
  it('is one line: the status and its buttons side by side', async () => {
    const page = await open(1280, '#/upstreams');
    await expect.poll(() => page.getByTestId('status-upstreams').textContent(), { timeout: 30_000 }).toMatch(/1 of 2 upstreams up/);
    // One row: every item starts above the bottom of the shortest one (a wrapped item starts below it).
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll('header > *')].map((e) => {
        const r = e.getBoundingClientRect();
        return {
          what: e.textContent?.trim().slice(0, 30) ?? '',
          top: Math.round(r.top),
          bottom: Math.round(r.bottom),
          width: Math.round(r.width),
        };
      }),
    );
    const firstBottom = Math.min(...boxes.map((b) => b.bottom));
    expect(
      boxes.filter((b) => b.top >= firstBottom),
      JSON.stringify(boxes),
    ).toEqual([]);
    await page.close();
  });
});

describe.each([1280, 800])('the status cell at %i px', (width) => {
  it("keeps the end of the server's stderr in view", async () => {
    const page = await open(width, '#/upstreams');
    const tail = page.getByTestId('stderr-reporting');
    await expect.poll(() => tail.textContent(), { timeout: 30_000 }).toMatch(/Error: DATABASE_URL is not set$/);
    // Shown, not clipped: its whole box is inside what the cell shows.
    const clipped = await tail.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    expect(clipped).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.close();
  }, 60_000);
});
