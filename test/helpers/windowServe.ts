// The set-up the window's end-to-end tests share: a real `mws serve` (the compiled CLI) on a config of
// the test's, listening on an OS-assigned port, and Debian's Chromium to open its window in.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { httpControlClient } from '../../src-main/core/control/transport/http.js';
import { tempDir } from './app.js';
import { launchChromium } from './browser.js';
import { listeningBase, ROOT, spawnMws, type Running } from './processes.js';

export type WindowServe = {
  browser: Browser;
  serve: Running;
  /** The test's folder: config.json, state/ and anything `prepare` put there. */
  dir: string;
  cfg: string;
  stateDir: string;
  /** `http://127.0.0.1:PORT`, no path. */
  base: string;
  /** The instance's ControlApi with its control token (the admin's). */
  control: () => ControlApi;
  /** A new page with the window open through a one-time link, errors on the page logged. */
  openWindow: (viewport?: { width: number; height: number }) => Promise<Page>;
  stop: () => Promise<void>;
};

/**
 * `config`: the config's own fields (upstreams, agents…); the state folder, port 0 and a list timeout for
 * a loaded machine are added. `prepare` runs on the folder first and may answer variables for `mws serve`.
 */
export async function serveWithWindow(
  config: Record<string, unknown>,
  prepare?: (dir: string) => NodeJS.ProcessEnv | void,
): Promise<WindowServe> {
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  const browser = await launchChromium();
  const dir = tempDir();
  const cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  const env = prepare?.(dir) ?? {};
  const timeouts = { listMs: 20_000, ...(config.timeouts as Record<string, unknown> | undefined) };
  writeFileSync(cfg, JSON.stringify({ ...config, stateDir, listen: { port: 0 }, timeouts }));
  const serve = spawnMws(['serve', '--config', cfg], env);
  const base = await listeningBase(serve);
  const control = () => httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim());
  return {
    browser,
    serve,
    dir,
    cfg,
    stateDir,
    base,
    control,
    openWindow: async (viewport = { width: 1200, height: 860 }) => {
      const page = await browser.newPage({ viewport });
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await page.goto((await control().uiLink({})).url);
      return page;
    },
    stop: async () => {
      await serve.kill();
      await browser.close();
    },
  };
}
