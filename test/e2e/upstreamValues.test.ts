// The window's Upstreams row for an upstream that needs a value, in a real browser against a real
// `mws serve`: it says "needs a value: KEY" (not "up", not "down"), takes the value in a password field,
// and the upstream comes up; the value shows nowhere on the page or in config.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { httpControlClient } from '../../src-main/core/control/transport/http.js';
import { ROOT, spawnMws, stdioFixture, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

const VALUE = 'BSA-window-typed-9c1e';
const SHA = createHash('sha256').update(VALUE).digest('hex');
/** The fixture starts only when the key reached its environment exactly. */
const GUARD = `import { createHash } from 'node:crypto'; if (createHash('sha256').update(process.env.BRAVE_API_KEY ?? '').digest('hex') !== '${SHA}') process.exit(3); await import('file://' + process.argv[1]);`;

let browser: Browser;
let serve: Running;
let cfg: string;
let stateDir: string;
let base: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  browser = await launchChromium();
  const dir = tempDir();
  cfg = join(dir, 'config.json');
  stateDir = join(dir, 'state');
  const f = stdioFixture();
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: {
        brave: {
          command: f.command,
          args: ['--input-type=module', '-e', GUARD, ...f.args],
          env: { BRAVE_API_KEY: '${input:BRAVE_API_KEY}' },
        },
      },
      stateDir,
      listen: { port: 0 },
    }),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  base = await listeningBase(serve);
});

afterAll(async () => {
  await serve?.kill();
  await browser?.close();
});

describe('the Upstreams screen', () => {
  it('asks for a value an upstream needs, and the upstream comes up with it', async () => {
    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    const { url } = await httpControlClient(base, token).uiLink({});
    const page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(url);
    await page.evaluate(() => (location.hash = '#/upstreams'));
    await expect.poll(() => page.getByTestId('status-brave').textContent(), { timeout: 20_000 }).toBe('needs a value: BRAVE_API_KEY');
    const field = page.getByTestId('value-brave-BRAVE_API_KEY');
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill(VALUE);
    await page.getByTestId('upstreams').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('status-brave').textContent(), { timeout: 20_000 }).toBe('up');
    expect(await page.getByTestId('value-brave-BRAVE_API_KEY').count()).toBe(0);
    expect(await page.content()).not.toContain(VALUE);
    expect(readFileSync(cfg, 'utf8')).not.toContain(VALUE);
    expect(serve.stderr()).not.toContain(VALUE);
    await page.close();
  }, 60_000);
});
