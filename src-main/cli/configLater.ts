// The config as a command that only talks to the running instance needs it (mws report, mws status):
// where that instance is, read from the file without validating it. Validating a config of 100 agents
// and their pins took ~40 ms, and building its schema ~20 ms more: most of such a command's own time.
// The file is validated only when the instance does not vouch for it (instance.ts vouchedInstance):
// one whose settings in force came from exactly this text has validated it already.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultStateDir, expandHome, resolveConfigPath } from '../core/config/paths.js';
import { textVersion } from '../core/config/textVersion.js';
import type { CliConfig, ConfigFlags } from './config.js';

/** Where a running instance of a config is: its state folder, and how many upstreams the config names (none: the demo's folder too). */
export type InstanceWhere = { stateDir: string; upstreams: number };

export type LaterConfig = {
  later: true;
  path: string;
  /** The file's text version (core/config/textVersion.ts); undefined when there is no file to read. */
  version: string | undefined;
  /** Where the file says its instance is; undefined when that cannot be read off it without validating it. */
  where: InstanceWhere | undefined;
  /** The config validated, as cliConfig answers it (read once). */
  load: () => Promise<CliConfig>;
};

/** cliConfig, for a module that must not load the schema unless it runs (config.ts brings it). */
export async function cliConfigNow(flags: ConfigFlags): Promise<CliConfig> {
  return (await import('./config.js')).cliConfig(flags);
}

export async function cliConfigLater(flags: ConfigFlags): Promise<LaterConfig> {
  const path = resolveConfigPath(flags.config);
  let loading: Promise<CliConfig> | undefined;
  const load = () => (loading ??= cliConfigNow(flags));
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return { later: true, path, version: undefined, where: undefined, load };
  return { later: true, path, version: textVersion(text), where: whereIn(text, flags), load };
}

/** What validation would make of "stateDir" and the upstreams, for a file that is valid (validate.ts, config.ts applyDemo). */
function whereIn(text: string, flags: ConfigFlags): InstanceWhere | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  // Team mode: the instance runs on the database's config, never vouching for this file (its version is the database's).
  if (o.store !== undefined || process.env.MWS_DATABASE_URL) return undefined;
  let stateDir = defaultStateDir();
  if (o.stateDir !== undefined) {
    if (typeof o.stateDir !== 'string' || o.stateDir.trim() === '') return undefined;
    stateDir = expandHome(o.stateDir);
  }
  if (flags.demo) return { stateDir: join(stateDir, 'demo'), upstreams: 1 };
  const { upstream, upstreams } = o;
  if (upstream !== undefined) return { stateDir, upstreams: 1 };
  return { stateDir, upstreams: typeof upstreams === 'object' && upstreams !== null ? Object.keys(upstreams).length : 0 };
}
