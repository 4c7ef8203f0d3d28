// The window at 1280 and 800 px against a real `mws serve`: the header stays on one line at 1280 px
// (its controls beside the status, not under it), and an upstream's status cell keeps the end of the
// server's stderr — where the reason is — instead of cutting it off after the sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';

let w: WindowServe;

/** A server that fails at start after a long stderr; its last line is the reason. */
const failing = {
  command: process.execPath,
  args: [
    '-e',
    "for (let i = 0; i < 6; i++) console.error('warning: deprecated option number ' + i + ' in /home/dana/projects/acme-platform/services/reporting/config/settings.local.yaml'); console.error('Error: DATABASE_URL is not set'); process.exit(1)",
  ],
};

async function open(width: number, hash: string): Promise<Page> {
  const page = await w.openWindow({ width, height: 800 });
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('status').waitFor();
  return page;
}

beforeAll(async () => {
  w = await serveWithWindow({ upstreams: { demo: { builtin: 'demo' }, reporting: failing }, timeouts: { listMs: 5_000 } });
}, 60_000);

afterAll(async () => {
  await w?.stop();
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
