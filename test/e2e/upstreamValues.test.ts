// The window's Upstreams row for an upstream that needs a value, in a real browser against a real
// `mws serve`: it says "needs a value: KEY" (not "up", not "down"), takes the value in a password field,
// and the upstream comes up; the value shows nowhere on the page or in config.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { stdioFixture } from '../helpers/processes.js';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';

const VALUE = 'BSA-window-typed-9c1e';
const SHA = createHash('sha256').update(VALUE).digest('hex');
/** The fixture starts only when the key reached its environment exactly. */
const GUARD = `import { createHash } from 'node:crypto'; if (createHash('sha256').update(process.env.BRAVE_API_KEY ?? '').digest('hex') !== '${SHA}') process.exit(3); await import('file://' + process.argv[1]);`;

let w: WindowServe;

beforeAll(async () => {
  const f = stdioFixture();
  w = await serveWithWindow({
    upstreams: {
      brave: {
        command: f.command,
        args: ['--input-type=module', '-e', GUARD, ...f.args],
        env: { BRAVE_API_KEY: '${input:BRAVE_API_KEY}' },
      },
    },
  });
});

afterAll(async () => {
  await w?.stop();
});

describe('the Upstreams screen', () => {
  it('asks for a value an upstream needs, and the upstream comes up with it', async () => {
    const page = await w.openWindow();
    await page.evaluate(() => (location.hash = '#/upstreams'));
    await expect.poll(() => page.getByTestId('status-brave').textContent(), { timeout: 20_000 }).toBe('needs a value: BRAVE_API_KEY');
    const field = page.getByTestId('value-brave-BRAVE_API_KEY');
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill(VALUE);
    await page.getByTestId('upstreams').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('status-brave').textContent(), { timeout: 20_000 }).toBe('up');
    expect(await page.getByTestId('value-brave-BRAVE_API_KEY').count()).toBe(0);
    expect(await page.content()).not.toContain(VALUE);
    expect(readFileSync(w.cfg, 'utf8')).not.toContain(VALUE);
    expect(w.serve.stderr()).not.toContain(VALUE);
    await page.close();
  }, 60_000);
});
