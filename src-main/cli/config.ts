// The config every command starts from: --config / $MWS_CONFIG / default, then --port and --demo.
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { MwsError } from '../core/errors.js';
import { validateConfig } from '../core/config/validate.js';
import { lockHolder } from '../core/store/stateLock.js';
import { loadConfig, type LoadedConfig } from '../core/config/load.js';
import { defaultStateDir, expandHome, resolveConfigPath } from '../core/config/paths.js';
import { SINGLE_UPSTREAM_KEY, type Config } from '../core/config/schema.js';
import { DEMO_BACKEND_HINTS } from '../core/demo/tools.js';

export type ConfigFlags = { config: string | undefined; port?: number | undefined; demo?: boolean };

/**
 * With --demo the built-in demo toolbox is served, whatever upstreams the file names (after `mws init`
 * it names a sample): `npm run demo` always shows the demo, with its own state.
 */
export function applyDemo(config: Config): Config {
  return {
    ...config,
    upstreams: { [SINGLE_UPSTREAM_KEY]: { kind: 'builtin', name: 'demo' } },
    prefixNames: false,
    backendHints: DEMO_BACKEND_HINTS,
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

/** `fileError`: the file is broken and the config is the running instance's last good one (its sentence). */
export type CliConfig = LoadedConfig & { fileError?: string };

export async function cliConfig(flags: ConfigFlags): Promise<CliConfig> {
  const path = resolveConfigPath(flags.config);
  let loaded: CliConfig;
  try {
    loaded = await loadConfig(path);
  } catch (err) {
    const running = await runningDespiteBrokenFile(path, err);
    if (!running) throw err;
    loaded = running;
  }
  return { ...loaded, config: flagsTransform(flags)(loaded.config) };
}

/**
 * A file with a typo while an instance runs on its last good config: the commands that talk to that
 * instance still work (they find it by its state folder), and say the file needs fixing. With no
 * instance running there is nothing else to go on, so the file's error stands.
 */
async function runningDespiteBrokenFile(path: string, err: unknown): Promise<CliConfig | undefined> {
  if (!(err instanceof MwsError) || err.code !== 'config_invalid') return undefined;
  let stateDir = defaultStateDir();
  const text = await readFile(path, 'utf8').catch(() => '');
  try {
    const raw = JSON.parse(text) as { stateDir?: unknown };
    if (typeof raw.stateDir === 'string') stateDir = expandHome(raw.stateDir);
  } catch {
    // Not even JSON (a comma missing): its "stateDir" is still read where it is written whole.
    const m = /"stateDir"\s*:\s*("(?:[^"\\\n]|\\.)*")/.exec(text);
    try {
      if (m) stateDir = expandHome(JSON.parse(m[1]!) as string);
    } catch {
      // the default state folder is where an instance of it would be
    }
  }
  const url = (await lockHolder(stateDir))?.record?.url;
  if (!url) return undefined;
  const u = new URL(url);
  const config = validateConfig({ stateDir, listen: { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) } }, stateDir);
  const fileError = err.message.replace(/ Nothing was changed; fix the file and start again\.$| Fix the file and start again\.$/, '');
  process.stderr.write(
    `mws: ${fileError}\n` +
      `mws: the instance at ${url} keeps running on its last good config, and this command works with it. Fix the file; the instance reads it again when it is saved.\n`,
  );
  return { config, path, exists: true, raw: {}, fileError };
}
