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

/** Answers the names of the values moved to the store ("github: headers.Authorization"). */
export async function keepImportedValues(servers: Array<{ vendor: string; upstream: unknown }>, clientFile: string, store: Pick<SecretStore, 'set'> | undefined): Promise<string[]> {
  const moved: string[] = [];
  for (const s of servers) {
    if (typeof s.upstream !== 'object' || s.upstream === null) continue;
    const u = s.upstream as Json;
    if (typeof u.envFile === 'string') {
      const f = u.envFile.replaceAll('${workspaceFolder}', workspaceOf(clientFile));
      const home = expandHome(f);
      u.envFile = isAbsolute(home) ? home : resolve(join(dirname(clientFile), home));
    }
    if (store) moved.push(...(await moveUpstreamSecrets(s.vendor, u, store)).map((m) => `${s.vendor}: ${m}`));
  }
  return moved;
}
