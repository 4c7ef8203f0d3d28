// Starts the same core `mws serve` runs, inside the Electron main process.
import { loadConfig } from '../core/config/load.js';
import { resolveConfigPath } from '../core/config/paths.js';
import { createApp } from '../core/app.js';
import { systemClock } from '../core/clock.js';
import { stderrLogger } from '../core/log.js';

export type CoreHandle = { url: string; vendors: string[]; stop: () => Promise<void> };

export async function startCore(): Promise<CoreHandle> {
  const { config } = await loadConfig(resolveConfigPath(undefined));
  const core = createApp({ config, clock: systemClock, log: stderrLogger });
  const { url } = await core.start();
  return { url: `${url}/mcp`, vendors: Object.keys(config.upstreams), stop: () => core.stop() };
}
