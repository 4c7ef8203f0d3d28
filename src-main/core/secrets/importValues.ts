// What `mws import` does with the values it read from another client, before they reach config.json:
// secret header and env values go to the SecretStore (config.json gets references), and an `envFile`
// is made absolute against the client config's folder (the folder VS Code reads it from).
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { expandHome } from '../config/paths.js';
import type { SecretStore } from './store.js';
import { moveUpstreamSecrets } from './move.js';
import { ownsSecret } from './refs.js';

type Json = Record<string, unknown>;

/** VS Code's project files sit in `<workspace>/.vscode/`; `${workspaceFolder}` is the workspace. */
function workspaceOf(clientFile: string): string {
  const dir = dirname(clientFile);
  return /[\\/]\.(vscode|cursor)$/.test(dir) ? dirname(dir) : dir;
}

/** An imported `envFile` as an absolute path: `${workspaceFolder}` filled in, a relative one against the client file's folder. */
export function importedEnvFile(envFile: string, clientFile: string): string {
  const home = expandHome(envFile.replaceAll('${workspaceFolder}', workspaceOf(clientFile)));
  return isAbsolute(home) ? home : resolve(join(dirname(clientFile), home));
}

/**
 * Whether a project file's `envFile` stays inside the project's folder, followed through symlinks (a
 * repository may commit `.env -> ~/.aws/credentials`). Outside it, the project would make Working Set
 * hand the user's own files to a command the project chose.
 */
export async function envFileInProject(upstream: unknown, clientFile: string): Promise<boolean> {
  const envFile = (upstream as { envFile?: unknown } | null)?.envFile;
  if (typeof envFile !== 'string') return true;
  const root = await realpath(workspaceOf(clientFile)).catch(() => resolve(workspaceOf(clientFile)));
  const file = await realpath(importedEnvFile(envFile, clientFile)).catch(() => resolve(importedEnvFile(envFile, clientFile)));
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Claude Code expands `${NAME}` and `${NAME:-default}` from its environment: here that is `${env:…}`. */
const CLAUDE_VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g;
const asEnvRefs = (v: unknown): unknown =>
  typeof v === 'string' ? v.replace(CLAUDE_VAR, (_m, name: string, dflt: string | undefined) => `\${env:${name}${dflt ?? ''}}`) : v;

/** Rewrites every string of an imported server a reference may sit in: url, command, args, env and header values. */
function mapValues(u: Json, f: (v: unknown) => unknown): void {
  for (const k of ['url', 'command'] as const) if (typeof u[k] === 'string') u[k] = f(u[k]);
  if (Array.isArray(u.args)) u.args = u.args.map(f);
  for (const k of ['env', 'headers'] as const) {
    const r = u[k];
    if (typeof r === 'object' && r !== null) for (const [name, v] of Object.entries(r)) (r as Json)[name] = f(v);
  }
}

/**
 * Scopes whose files the user wrote (their own client settings). A project's file comes with a
 * repository, and a file named with --file may too: what they say is not taken on trust.
 */
export const isUserScope = (scope: string | undefined): boolean => scope === 'user' || (scope ?? '').startsWith('local');

const ENV_REF = /\$\{env:([^}\s]{1,200})\}/g;
const asInputRefs = (v: unknown): unknown => (typeof v === 'string' ? v.replace(ENV_REF, (_m, id: string) => `\${input:${id}}`) : v);

/**
 * A project file's `${env:NAME}` (and bearer-token variable) would send mws's environment — an AWS key,
 * a GitHub token — to a URL or command the repository chose. They become values the user gives
 * (`${input:NAME}`: the upstream says "needs a value: NAME" until then), defaults kept.
 */
function untrustedVariables(u: Json): void {
  mapValues(u, asInputRefs);
  if (typeof u.bearerTokenEnvVar === 'string') {
    const headers = (typeof u.headers === 'object' && u.headers !== null ? u.headers : (u.headers = {})) as Json;
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
      headers.Authorization = `Bearer \${input:${u.bearerTokenEnvVar}}`;
    delete u.bearerTokenEnvVar;
  }
}

/** Whether an imported server names Working Set's own secret store, which no client writes (see service.ts). */
export const refersToStore = (upstream: unknown): boolean => JSON.stringify(upstream ?? null).includes('${secret:');

/** Answers the names of the values moved to the store ("github: headers.Authorization"). */
/** `scope`: the file's (`user`, `project`, or `file` for one named with --file). */
export async function keepImportedValues(
  servers: Array<{ vendor: string; upstream: unknown }>,
  clientFile: string,
  store: Pick<SecretStore, 'set' | 'list' | 'delete'> | undefined,
  client?: string | null,
  scope?: string,
): Promise<string[]> {
  const moved: string[] = [];
  for (const s of servers) {
    if (typeof s.upstream !== 'object' || s.upstream === null) continue;
    const u = s.upstream as Json;
    if (client === 'claude-code') mapValues(u, asEnvRefs);
    if (!isUserScope(scope)) untrustedVariables(u);
    // Values left by a removed upstream of the same name are not the new one's to read.
    if (store) for (const name of await store.list()) if (ownsSecret(s.vendor, name)) await store.delete(name);
    if (typeof u.envFile === 'string') u.envFile = importedEnvFile(u.envFile, clientFile);
    if (store) moved.push(...(await moveUpstreamSecrets(s.vendor, u, store)).map((m) => `${s.vendor}: ${m}`));
  }
  return moved;
}
