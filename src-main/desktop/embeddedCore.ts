// Starts the same core `mws serve` runs, inside the Electron main process, on the user's config, and
// hands the shell only what it uses (desktopCore.ts): the ControlApi, the event stream and two look-ups for notices.
import { SecretOAuthStore } from '../core/upstream/oauth/secretOAuthStore.js';
import { loadConfig, type LoadedConfig } from '../core/config/load.js';
import { resolveConfigPath } from '../core/config/paths.js';
import { createApp } from '../core/app.js';
import { systemClock } from '../core/clock.js';
import { stderrLogger } from '../core/log.js';
import { DEFAULT_MODEL } from '../core/search/embed/modelFiles.js';
import { join } from 'node:path';
import type { DesktopCore } from './desktopCore.js';
import { FileSecretStore, type SecretCipher } from '../core/secrets/store.js';
import { exposeGc } from '../core/http/garbage.js';

/** `prepare` runs on the loaded config before the core sees it (the desktop store's migration). */
/**
 * `cipher`: seals the secret store with the OS keychain (secretCipher.ts); without one it is the 0600 file `mws serve` uses.
 * `resourcesDir`: the packaged app's resources, where Forge's extraResource put model/ (undefined: the package's own).
 */
export async function startEmbeddedCore(
  rendererDir: string,
  prepare: (loaded: LoadedConfig) => Promise<LoadedConfig> = async (l) => l,
  cipher?: SecretCipher,
  resourcesDir?: string,
): Promise<DesktopCore> {
  // The app owns its process: a burst's memory is given back with a full collection (http/garbage.ts).
  exposeGc();
  const path = resolveConfigPath(undefined);
  const loaded = await prepare(await loadConfig(path));
  const modelDir = resourcesDir === undefined ? undefined : join(resourcesDir, 'model', loaded.config.search?.model ?? DEFAULT_MODEL);
  const secrets = new FileSecretStore(loaded.config.stateDir, stderrLogger, cipher);
  const app = createApp({
    config: loaded.config,
    clock: systemClock,
    log: stderrLogger,
    configFile: { path, raw: loaded.raw, ...(loaded.version ? { version: loaded.version } : {}) },
    rendererDir,
    ...(modelDir ? { modelDir } : {}),
    lock: { command: 'the Working Set app', waitMs: 5_000 },
    secrets,
    oauthStore: new SecretOAuthStore(secrets),
  });
  await app.start();
  return {
    control: app.control,
    events: app.events,
    agentName: (id) => app.config.agents.find((a) => a.id === id)?.name ?? id,
    upstreamRefused: (vendor) => app.catalog.revokedVendors().has(vendor),
    stop: () => app.stop(),
  };
}
