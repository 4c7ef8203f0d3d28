// What `mws import` does with the values it read from another client, before they reach config.json:
// secret header and env values go to the SecretStore (config.json gets references), and an `envFile`
// is made absolute against the client config's folder (the folder VS Code reads it from).
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { expandHome } from '../config/paths.js';
import type { SecretStore } from './store.js';
import { moveUpstreamSecrets } from './move.js';

type Json = Record<string, unknown>;

/** VS Code's project files sit in `<workspace>/.vscode/`; `${workspaceFolder}` is the workspace. */
function workspaceOf(clientFile: string): string {
  const dir = dirname(clientFile);
  return /[\\/]\.(vscode|cursor)$/.test(dir) ? dirname(dir) : dir;
}

/** Claude Code expands `${NAME}` and `${NAME:-default}` from its environment: here that is `${env:…}`. */
const CLAUDE_VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g;
const asEnvRefs = (v: unknown): unknown => (typeof v === 'string' ? v.replace(CLAUDE_VAR, (_m, name: string, dflt: string | undefined) => `\${env:${name}${dflt ?? ''}}`) : v);

function claudeVariables(u: Json): void {
  for (const k of ['url', 'command'] as const) if (typeof u[k] === 'string') u[k] = asEnvRefs(u[k]);
  if (Array.isArray(u.args)) u.args = u.args.map(asEnvRefs);
  for (const k of ['env', 'headers'] as const) {
    const r = u[k];
    if (typeof r === 'object' && r !== null) for (const [name, v] of Object.entries(r)) (r as Json)[name] = asEnvRefs(v);
  }
}

/** Answers the names of the values moved to the store ("github: headers.Authorization"). */
export async function keepImportedValues(servers: Array<{ vendor: string; upstream: unknown }>, clientFile: string, store: Pick<SecretStore, 'set'> | undefined, client?: string | null): Promise<string[]> {
  const moved: string[] = [];
  for (const s of servers) {
    if (typeof s.upstream !== 'object' || s.upstream === null) continue;
    const u = s.upstream as Json;
    if (client === 'claude-code') claudeVariables(u);
    if (typeof u.envFile === 'string') {
      const f = u.envFile.replaceAll('${workspaceFolder}', workspaceOf(clientFile));
      const home = expandHome(f);
      u.envFile = isAbsolute(home) ? home : resolve(join(dirname(clientFile), home));
    }
    if (store) moved.push(...(await moveUpstreamSecrets(s.vendor, u, store)).map((m) => `${s.vendor}: ${m}`));
  }
  return moved;
}
