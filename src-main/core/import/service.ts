// Moving servers in from other MCP clients: find their config files, show what they hold, add the
// chosen servers as upstreams (one validated config edit, after a backup), and work out the edit that
// makes the client reach them through Working Set instead.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { MwsError } from '../errors.js';
import type { Config } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import { CLIENT_IDS, CLIENT_NAMES, clientOfFile, guessFormat, knownFiles, type ClientId, type FileFormat, type Where } from './clients.js';
import { readServers, type FoundWithValues } from './read.js';
import { clientEdit } from './clientEdit.js';
import type { ImportResult, ImportSource } from './types.js';
import type { SecretStore } from '../secrets/store.js';
import { envFileInProject, isUserScope, keepImportedValues, refersToStore } from '../secrets/importValues.js';

export type ScanArgs = { from?: string; file?: string; projectDir?: string };

function checkClient(from: string): ClientId {
  if (!(CLIENT_IDS as readonly string[]).includes(from)) throw new MwsError('usage', `There is no client "${from}" to import from; use one of ${CLIENT_IDS.join(', ')}, or name a file.`);
  return from as ClientId;
}

function fileFor(args: ScanArgs, where: Where): Array<{ path: string; format?: FileFormat; client?: ClientId; scope?: string }> {
  if (args.file) {
    const path = isAbsolute(args.file) ? args.file : resolve(args.projectDir ?? process.cwd(), args.file);
    return [knownFiles(where).find((k) => k.path === path) ?? { path }];
  }
  const all = knownFiles(where);
  return args.from ? all.filter((k) => k.client === checkClient(args.from!)) : all;
}

async function readSource(f: { path: string; format?: FileFormat; client?: ClientId; scope?: string }, named: boolean): Promise<(ImportSource & { found: FoundWithValues[]; text: string }) | undefined> {
  let text: string;
  try {
    text = await readFile(f.path, 'utf8');
  } catch (err) {
    if (!named) return undefined; // a client that is not installed is simply not listed
    const code = (err as NodeJS.ErrnoException).code;
    throw new MwsError('usage', code === 'ENOENT' ? `There is no file ${f.path}; check the path.` : `${f.path} cannot be read (${code ?? (err as Error).message}).`);
  }
  const format = f.format ?? guessFormat(f.path, text);
  const client = f.client ?? clientOfFile(f.path, format);
  const base = { client, clientName: client ? CLIENT_NAMES[client] : 'MCP client', file: f.path, format, scope: f.scope ?? 'file', text };
  try {
    const found = readServers(text, format, f.path);
    return { ...base, found, servers: found.map(({ upstream: _u, ...s }) => s), error: null };
  } catch (err) {
    if (named) throw err;
    return { ...base, found: [], servers: [], error: (err as Error).message };
  }
}

/** The known client files on this machine that exist (or the one named), with the servers each holds. */
export async function scanImports(args: ScanArgs, where: Where = {}): Promise<ImportSource[]> {
  const w = { ...where, projectDir: args.projectDir ?? where.projectDir };
  const out: ImportSource[] = [];
  for (const f of fileFor(args, w)) {
    const s = await readSource(f, args.file !== undefined);
    if (s) out.push({ client: s.client, clientName: s.clientName, file: s.file, format: s.format, scope: s.scope, servers: s.servers, error: s.error });
  }
  return out;
}

const stamp = (now: number) => new Date(now).toISOString().replace(/[:.]/g, '-');

async function backup(path: string, now: number): Promise<string | null> {
  const to = `${path}.${stamp(now)}.bak`;
  try {
    await copyFile(path, to);
    return to;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export type ApplyArgs = { file: string; names?: string[]; dryRun?: boolean; writeClient?: boolean; projectDir?: string; agent?: string };

export type ApplyParts = { config: Config; editor: ConfigEditor; configPath: string | null; agentUrl: (agent: string) => string; now: () => number; where?: Where; /** Where secret values go (config.json gets references). */ secrets?: SecretStore };

/** Adds the chosen servers of one file as upstreams and works out (or makes) the client edit. */
export async function applyImport(a: ApplyArgs, p: ApplyParts): Promise<ImportResult> {
  if (typeof a.file !== 'string' || !a.file) throw new MwsError('usage', 'Name the client config file to import from.');
  const where = { ...p.where, projectDir: a.projectDir ?? p.where?.projectDir };
  const [f] = fileFor({ file: a.file, ...(a.projectDir ? { projectDir: a.projectDir } : {}) }, where);
  const src = (await readSource(f!, true))!;
  const wanted = a.names?.length ? new Set(a.names) : undefined;
  const unknown = [...(wanted ?? [])].filter((n) => !src.found.some((s) => s.name === n));
  if (unknown.length) throw new MwsError('usage', `${src.file} has no server named ${unknown.map((n) => `"${n}"`).join(', ')}; it has ${src.found.map((s) => s.name).join(', ') || 'none'}.`);

  const existing = p.editor.current();
  const ups = (existing.upstreams ?? {}) as Raw;
  const added: ImportResult['added'] = [];
  const skipped: ImportResult['skipped'] = [];
  const taken = new Set(Object.keys(ups));
  const chosen: FoundWithValues[] = [];
  for (const s of src.found) {
    if (wanted && !wanted.has(s.name)) continue;
    if (!s.upstream) skipped.push({ name: s.name, reason: 'it has neither a command nor a URL' });
    else if (taken.has(s.vendor)) skipped.push({ name: s.name, reason: `an upstream named "${s.vendor}" already exists` });
    // No client writes `${secret:…}`: in a client's file it can only aim at a secret of Working Set's.
    else if (refersToStore(s.upstream)) skipped.push({ name: s.name, reason: 'it refers to Working Set\'s secret store (${secret:…}), which no client writes; add it by hand if you wrote that' });
    else if (!isUserScope(src.scope) && !(await envFileInProject(s.upstream, src.file))) {
      skipped.push({ name: s.name, reason: `it reads its environment from ${String((s.upstream as { envFile?: unknown }).envFile)}, outside the project's folder; a project's file may not hand your files to its server (add it by hand if you trust it)` });
    }
    else {
      taken.add(s.vendor);
      chosen.push(s);
      added.push({ name: s.name, vendor: s.vendor });
    }
  }
  if ('upstream' in existing && chosen.length) {
    throw new MwsError('usage', 'This config uses the single "upstream" field. Move it under "upstreams" with a vendor name first, then import.');
  }
  const agent = a.agent ?? 'default';
  const url = p.agentUrl(agent);
  const edit = clientEdit({ text: src.text, format: src.format, client: src.client, servers: chosen, entryName: p.config.serverName, url, file: src.file });
  const result: ImportResult = { file: src.file, added, skipped, backup: null, clientEdit: { ...edit, file: src.file, url }, clientBackup: null, dryRun: a.dryRun === true };
  if (a.dryRun || chosen.length === 0) return result;

  if (!p.editor.editable) await p.editor.update(() => {}); // throws the editor's own sentence
  result.backup = p.configPath ? await backup(p.configPath, p.now()) : null;
  // Secret values go to the secret store before the config names them; envFile becomes absolute.
  result.secretsStored = await keepImportedValues(chosen, src.file, p.secrets, src.client, src.scope);
  await p.editor.update((raw) => {
    if (typeof raw.upstreams !== 'object' || raw.upstreams === null) raw.upstreams = {};
    for (const s of chosen) (raw.upstreams as Raw)[s.vendor] = s.upstream as Raw;
  });
  if (a.writeClient) {
    result.clientBackup = await backup(src.file, p.now());
    await writeFile(src.file, edit.text, { mode: 0o600 });
  }
  return result;
}
