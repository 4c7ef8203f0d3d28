// The config every command starts from: --config / $MWS_CONFIG / default, then --port and --demo.
import { join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../core/config/load.js';
import { resolveConfigPath } from '../core/config/paths.js';
import { SINGLE_UPSTREAM_KEY, type Config } from '../core/config/schema.js';
import { DEMO_BACKEND_HINTS } from '../core/demo/tools.js';

export type ConfigFlags = { config: string | undefined; port?: number | undefined; demo?: boolean };

/** With --demo and no upstream configured, the built-in demo toolbox is served, with its own state. */
export function applyDemo(config: Config): Config {
  if (Object.keys(config.upstreams).length > 0) return config;
  return {
    ...config,
    upstreams: { [SINGLE_UPSTREAM_KEY]: { kind: 'builtin', name: 'demo' } },
    prefixNames: false,
    backendHints: Object.keys(config.backendHints).length ? config.backendHints : DEMO_BACKEND_HINTS,
    // Its own state: a demo catalog must never stand in as the last-good list of a real upstream.
    stateDir: join(config.stateDir, 'demo'),
  };
}

/** What the flags change in any config: applied at start and again to every config saved while running. */
export function flagsTransform(flags: ConfigFlags): (c: Config) => Config {
  return (c) => {
    let config = c;
    if (flags.port !== undefined) config = { ...config, listen: { ...config.listen, port: flags.port } };
    if (flags.demo) config = applyDemo(config);
    return config;
  };
}

export async function cliConfig(flags: ConfigFlags): Promise<LoadedConfig> {
  const loaded = await loadConfig(resolveConfigPath(flags.config));
  return { ...loaded, config: flagsTransform(flags)(loaded.config) };
}
