// Starts the same core `mws serve` runs, inside the Electron main process, on the user's config.
import { loadConfig } from '../core/config/load.js';
import { resolveConfigPath } from '../core/config/paths.js';
import { createApp, type App } from '../core/app.js';
import { systemClock } from '../core/clock.js';
import { stderrLogger } from '../core/log.js';

export async function startCore(rendererDir: string): Promise<App> {
  const path = resolveConfigPath(undefined);
  const loaded = await loadConfig(path);
  const core = createApp({ config: loaded.config, clock: systemClock, log: stderrLogger, configFile: { path, raw: loaded.raw }, rendererDir, lock: { command: 'the Working Set app', waitMs: 5_000 } });
  await core.start();
  return core;
}
