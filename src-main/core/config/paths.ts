// Where files live: config path resolution and the user's home-relative defaults.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

export function defaultConfigPath(): string {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'mcp-working-set', 'config.json');
}

export function defaultStateDir(): string {
  const base = process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'mcp-working-set');
}

/** `--config`, else `$MWS_CONFIG`, else the per-user default. */
export function resolveConfigPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return expandHome(flag ?? env.MWS_CONFIG ?? defaultConfigPath());
}
