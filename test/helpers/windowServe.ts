// The set-up the window's end-to-end tests share: a real `mws serve` (the compiled CLI) on a config of
// the test's, listening on an OS-assigned port, and Debian's Chromium to open its window in.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import { tempDir } from './app.js';
import { launchChromium } from './browser.js';
import { listeningBase, ROOT, spawnMws, type Running } from './processes.js';

export type OpenOptions = {
  /** Where the page opens (a new page of the shared browser by default; a context for its own cookies). */
  context?: BrowserContext;
  colorScheme?: 'light' | 'dark';
  /** The screen to show once signed in (`#/agents`…), waited for until the status has loaded. */
  hash?: string;
  /** Runs on the page before it goes to the window (listeners, routes). */
  before?: (page: Page) => Promise<unknown>;
};

export type WindowServe = {
  browser: Browser;
  /** The running `mws serve` (a new one after restart()). */
  readonly serve: Running;
  /** The test's folder: config.json, state/ and anything `prepare` put there. */
  dir: string;
  cfg: string;
  stateDir: string;
  /** `http://127.0.0.1:PORT`, no path (a new one after restart()). */
  readonly base: string;
  /** The instance's ControlApi with its control token (the admin's). */
  control: () => ControlApi;
  /**
   * A new page with the window open through a one-time link, errors on the page logged. With `hash`,
   * on that screen once its status has loaded.
   */
  openWindow: (viewport?: { width: number; height: number }, o?: OpenOptions) => Promise<Page>;
  /** Stops `mws serve` and starts it again on the same config and state folder. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
};

export type ServeOptions = {
  /** Runs on the folder first and may answer variables for `mws serve` (HOME for import, say). */
  prepare?: (dir: string) => NodeJS.ProcessEnv | void;
  /** A browser to share with other instances of the test (then stop() leaves it open). */
  browser?: Browser;
  /** A fixed port instead of one the OS picks (a test whose client entries must name it before start). */
  port?: number;
  /** Where the folder is made (its name's prefix). */
  prefix?: string;
};

/**
 * `config`: the config's own fields (upstreams, agents…); the state folder, the port (0 unless given)
 * and a list timeout for a loaded machine are added.
 */
export async function serveWithWindow(
  config: Record<string, unknown>,
  options?: ServeOptions | ServeOptions['prepare'],
): Promise<WindowServe> {
  const o: ServeOptions = typeof options === 'function' ? { prepare: options } : (options ?? {});
  if (!existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
    throw new Error('The window is not built: run `npm run build` first (npm test does).');
  const browser = o.browser ?? (await launchChromium());
  const dir = tempDir(o.prefix);
  const cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  const env = o.prepare?.(dir) ?? {};
  const timeouts = { listMs: 20_000, ...(config.timeouts as Record<string, unknown> | undefined) };
  writeFileSync(cfg, JSON.stringify({ ...config, stateDir, listen: { port: o.port ?? 0 }, timeouts }, null, 2));
  let serve = spawnMws(['serve', '--config', cfg], env);
  let base = await listeningBase(serve);
  const control = () => httpControlClient(base, readFileSync(join(stateDir, 'control-token'), 'utf8').trim());
  return {
    browser,
    get serve() {
      return serve;
    },
    dir,
    cfg,
    stateDir,
    get base() {
      return base;
    },
    control,
    openWindow: async (viewport = { width: 1200, height: 860 }, open: OpenOptions = {}) => {
      const page = open.context
        ? await open.context.newPage()
        : await browser.newPage({ viewport, ...(open.colorScheme ? { colorScheme: open.colorScheme } : {}) });
      if (open.context) await page.setViewportSize(viewport);
      page.on('pageerror', (e) => console.error('page error:', e.message));
      await open.before?.(page);
      await page.goto((await control().uiLink({})).url);
      if (open.hash !== undefined) {
        await page.evaluate((h) => (location.hash = h), open.hash);
        await page.getByTestId('status').waitFor();
      }
      return page;
    },
    restart: async () => {
      await serve.kill();
      serve = spawnMws(['serve', '--config', cfg], env);
      base = await listeningBase(serve);
    },
    stop: async () => {
      await serve.kill();
      if (!o.browser) await browser.close();
    },
  };
}
