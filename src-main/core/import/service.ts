// Moving servers in from other MCP clients: find their config files, show what they hold, add the
// chosen servers as upstreams (one validated config edit, after a backup), and work out the edit that
// makes the client reach them through Working Set instead.
import { access, constants, copyFile, open, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { MwsError, errorMessage } from '../errors.js';
import { DEFAULT_PORT, type Config } from '../config/schema.js';
import type { ConfigEditor, Raw } from '../config/editor.js';
import { expandHome } from '../config/paths.js';
import { backupStamp } from '../config/backups.js';
import { clientToolTimeoutSec } from './clientTimeouts.js';
import { printable } from '../printable.js';
import { CLIENT_IDS, CLIENT_NAMES, clientOfFile, guessFormat, knownFiles, type ClientId, type FileFormat, type Where } from './clients.js';
import { readServers, serversOf, unreadable, type FoundWithValues } from './read.js';
import { VENDOR_PATTERN, VENDOR_RULE_WORDS } from '../../shared/vendorName.js';
import { planClientEdit } from './clientEdit.js';
import { runJsonJob, type JsonEdit, type WorkerAnswer } from './jsonWorker.js';
import { judge } from './offers.js';
import type { SelfKnowledge } from './self.js';
import type { ImportResult, ImportSource } from './types.js';
import type { SecretStore } from '../secrets/store.js';
import { envFileInProject, isUserScope, keepImportedValues, refersToStore } from '../secrets/importValues.js';

export type ScanArgs = { from?: string; file?: string; projectDir?: string };

/** What a scan knows of this Working Set, so it can say which servers are itself, already here or taken. */
export type ScanContext = { self?: SelfKnowledge; upstreams?: Raw };

function checkClient(from: string): ClientId {
  if (!(CLIENT_IDS as readonly string[]).includes(from))
    throw new MwsError(
      'usage',
      `There is no client "${printable(from)}" to import from; use one of ${CLIENT_IDS.join(', ')}, or name a file.`,
    );
  return from as ClientId;
}

/**
 * The file named: `~` is the user's home; a relative path is read from the folder the command runs in
 * (the CLI's), and refused where that folder is nobody's to see (the window gives no projectDir).
 */
function namedPath(file: string, projectDir: string | undefined): string {
  const p = expandHome(file.trim());
  if (isAbsolute(p)) return p;
  if (projectDir === undefined)
    throw new MwsError(
      'usage',
      `"${printable(file)}" is not a full path; give the whole path (it may start with ~/ for your home folder).`,
      { path: 'file' },
    );
  return resolve(projectDir, p);
}

function fileFor(args: ScanArgs, where: Where): Array<{ path: string; format?: FileFormat; client?: ClientId; scope?: string }> {
  if (args.file !== undefined) {
    const path = namedPath(args.file, args.projectDir);
    return [knownFiles(where).find((k) => k.path === path) ?? { path }];
  }
  const all = knownFiles(where);
  return args.from ? all.filter((k) => k.client === checkClient(args.from!)) : all;
}

type Source = ImportSource & { found: FoundWithValues[] };

/** The worker's answer; a worker that died or hung becomes a sentence about the file, not a stack trace. */
async function jobOrSentence(job: Parameters<typeof runJsonJob>[0]): Promise<WorkerAnswer> {
  try {
    return await runJsonJob(job);
  } catch (err) {
    throw new MwsError('usage', `${job.file} cannot be read: ${errorMessage(err)}.`, { file: job.file });
  }
}

/** The servers of a JSON file, parsed in a worker (a client file can be hundreds of MB). */
async function jsonServers(path: string, format: FileFormat, scope: string): Promise<FoundWithValues[]> {
  const r = await jobOrSentence({ op: 'read', file: path, format });
  if (r.failed) throw Object.assign(new Error(r.failed.message), { code: r.failed.code });
  if (r.problem !== undefined) throw unreadable(path, 'JSON', r.problem);
  return serversOf(r.doc, format, path, scope);
}

async function readSource(
  f: { path: string; format?: FileFormat; client?: ClientId; scope?: string },
  named: boolean,
): Promise<(Source & { text?: string }) | undefined> {
  let format = f.format;
  let text: string | undefined;
  try {
    // The format of a named file is guessed from its start; only TOML (small, Codex's) is read here whole.
    if (!format) format = guessFormat(f.path, await head(f.path));
    if (format === 'codex-toml') text = await readFile(f.path, 'utf8');
    else await access(f.path, constants.R_OK);
  } catch (err) {
    if (!named) return undefined; // a client that is not installed is simply not listed
    const code = (err as NodeJS.ErrnoException).code;
    throw new MwsError(
      'usage',
      code === 'ENOENT' ? `There is no file ${f.path}; check the path.` : `${f.path} cannot be read (${code ?? (err as Error).message}).`,
    );
  }
  const client = f.client ?? clientOfFile(f.path, format);
  const scope = f.scope ?? 'file';
  const base = { client, clientName: client ? CLIENT_NAMES[client] : 'MCP client', file: f.path, format, scope };
  try {
    const found = text !== undefined ? readServers(text, format, f.path, scope) : await jsonServers(f.path, format, scope);
    return { ...base, found, servers: found.map(({ upstream: _u, ...s }) => s), error: null, ...(text !== undefined ? { text } : {}) };
  } catch (err) {
    if (named) throw err;
    return { ...base, found: [], servers: [], error: (err as Error).message };
  }
}

/** The first 64 KiB of a file, enough to tell its format. */
async function head(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** The known client files on this machine that exist (or the one named), with the servers each holds. */
export async function scanImports(args: ScanArgs, where: Where = {}, ctx: ScanContext = {}): Promise<ImportSource[]> {
  const w = { ...where, projectDir: args.projectDir ?? where.projectDir };
  const out: ImportSource[] = [];
  for (const f of fileFor(args, w)) {
    const s = await readSource(f, args.file !== undefined);
    if (!s) continue;
    const offers = judge(s.found, ctx);
    out.push({
      client: s.client,
      clientName: s.clientName,
      file: s.file,
      format: s.format,
      scope: s.scope,
      servers: s.servers.map((x, i) => (offers[i] ? { ...x, blocked: offers[i] } : x)),
      error: s.error,
    });
  }
  return out;
}

/** Copies the client's file to `path.<time>.bak` next to it; null when there is no file yet. */
async function backup(path: string, now: number): Promise<string | null> {
  const to = `${path}.${backupStamp(now)}.bak`;
  try {
    await copyFile(path, to);
    return to;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export type ApplyArgs = {
  file: string;
  names?: string[];
  dryRun?: boolean;
  writeClient?: boolean;
  projectDir?: string;
  agent?: string;
  /** Import a server under another upstream name: client name → vendor slug. */
  as?: Record<string, string>;
};

export type ApplyParts = {
  config: Config;
  editor: ConfigEditor;
  configPath: string | null;
  agentUrl: (agent: string) => string;
  now: () => number;
  where?: Where;
  /** The ports Working Set is or was configured with, so its own entries are known (self.ts). */
  ports?: number[];
  /** Where secret values go (config.json gets references). */
  secrets?: SecretStore;
};

const VENDOR = VENDOR_PATTERN;

/** Adds the chosen servers of one file as upstreams and works out (or makes) the client edit. */
export async function applyImport(a: ApplyArgs, p: ApplyParts): Promise<ImportResult> {
  if (typeof a.file !== 'string' || !a.file) throw new MwsError('usage', 'Name the client config file to import from.');
  const where = { ...p.where, projectDir: a.projectDir ?? p.where?.projectDir };
  const [f] = fileFor({ file: a.file, ...(a.projectDir ? { projectDir: a.projectDir } : {}) }, where);
  const src = (await readSource(f!, true))!;
  const wanted = a.names?.length ? new Set(a.names) : undefined;
  const unknown = [...(wanted ?? []), ...Object.keys(a.as ?? {})].filter((n) => !src.found.some((s) => s.name === n));
  if (unknown.length)
    throw new MwsError(
      'usage',
      `${src.file} has no server named ${unknown.map((n) => `"${printable(n)}"`).join(', ')}; it has ${src.found.map((s) => printable(s.name)).join(', ') || 'none'}.`,
    );
  for (const [name, vendor] of Object.entries(a.as ?? {})) {
    if (!VENDOR.test(vendor))
      throw new MwsError(
        'usage',
        `"${printable(vendor)}" cannot name "${printable(name)}" here: an upstream's name is ${VENDOR_RULE_WORDS}.`,
        { path: 'as', got: vendor },
      );
  }

  const existing = p.editor.current();
  const ctx: ScanContext = { self: selfOf(p), upstreams: (existing.upstreams ?? {}) as Raw };
  const found = src.found.map((s) => (a.as?.[s.name] ? { ...s, vendor: a.as[s.name]! } : s));
  const offers = judge(found, ctx);
  const added: ImportResult['added'] = [];
  const skipped: ImportResult['skipped'] = [];
  const replaced: string[] = [];
  const chosen: FoundWithValues[] = [];
  const own: FoundWithValues[] = [];
  for (const [i, s] of found.entries()) {
    const why = offers[i];
    // Working Set itself, and a server it already serves (imported earlier, from this or another
    // client), leave the client's file with the ones imported now: kept, their tools would be listed twice.
    if (why?.kind === 'self' || (why?.kind === 'duplicate' && s.upstream)) own.push(s);
    if (wanted && !wanted.has(s.name)) continue;
    if (!s.upstream) skipped.push({ name: s.name, reason: 'it has neither a command nor a URL' });
    else if (why)
      skipped.push({
        name: s.name,
        reason:
          why.kind === 'exists' ? `${why.reason}; to import it too, give it another name (--as ${s.name}=${why.suggested})` : why.reason,
      });
    // No client writes `${secret:…}`: in a client's file it can only aim at a secret of Working Set's.
    else if (refersToStore(s.upstream))
      skipped.push({
        name: s.name,
        reason: "it refers to Working Set's secret store (${secret:…}), which no client writes; add it by hand if you wrote that",
      });
    else if (!isUserScope(src.scope) && !(await envFileInProject(s.upstream, src.file))) {
      skipped.push({
        name: s.name,
        reason: `it reads its environment from ${String((s.upstream as { envFile?: unknown }).envFile)}, outside the project's folder; a project's file may not hand your files to its server (add it by hand if you trust it)`,
      });
    } else {
      if (Object.hasOwn(ctx.upstreams ?? {}, s.vendor)) replaced.push(s.vendor); // only the untouched sample gets here (judge)
      chosen.push(s);
      added.push({ name: s.name, vendor: s.vendor });
    }
  }
  if ('upstream' in existing && chosen.length) {
    throw new MwsError(
      'usage',
      'This config uses the single "upstream" field. Move it under "upstreams" with a vendor name first, then import.',
    );
  }
  const agent = a.agent ?? 'default';
  const url = p.agentUrl(agent);
  const plan = planClientEdit({
    ...(src.text !== undefined ? { text: src.text } : {}),
    format: src.format,
    client: src.client,
    servers: chosen,
    remove: own,
    entryName: p.config.serverName,
    url,
    file: src.file,
    toolTimeoutSec: clientToolTimeoutSec(p.config.timeouts),
  });
  if (src.format !== 'codex-toml' && (chosen.length || own.length)) plan.text = await editedJson(src.file, plan.jsonEdits);
  const { jsonEdits: _e, ...edit } = plan;
  const result: ImportResult = {
    file: src.file,
    added,
    skipped,
    ...(replaced.length ? { replaced } : {}),
    backup: null,
    clientEdit: { ...edit, file: src.file, url },
    clientBackup: null,
    dryRun: a.dryRun === true,
  };
  if (a.writeClient && chosen.length && !edit.editable)
    throw new MwsError('usage', `Nothing was imported: ${edit.summary}`, { file: src.file });
  if (a.dryRun || chosen.length === 0) return result;

  if (!p.editor.editable) await p.editor.update(() => {}); // throws the editor's own sentence
  // Secret values go to the secret store before the config names them; envFile becomes absolute.
  result.secretsStored = await keepImportedValues(chosen, src.file, p.secrets, src.client, src.scope);
  const saved: { now: number; path?: string | null } = { now: p.now() };
  await p.editor.update(
    (raw) => {
      if (typeof raw.upstreams !== 'object' || raw.upstreams === null) raw.upstreams = {};
      for (const s of chosen) (raw.upstreams as Raw)[s.vendor] = upstreamEntry(s);
    },
    { backup: saved },
  );
  result.backup = saved.path ?? null;
  if (a.writeClient) {
    result.clientBackup = await backup(src.file, p.now());
    await writeFile(src.file, edit.text, { mode: 0o600 });
  }
  return result;
}

/** The config entry an imported server becomes (one place, so a step per entry has one home). */
function upstreamEntry(s: FoundWithValues): Raw {
  return s.upstream as Raw;
}

async function editedJson(file: string, edits: JsonEdit[]): Promise<string> {
  const r = await jobOrSentence({ op: 'edit', file, edits });
  if (r.failed) throw new MwsError('usage', `${file} cannot be read (${r.failed.code ?? r.failed.message}).`, { file });
  if (r.problem !== undefined) throw unreadable(file, 'JSON', r.problem);
  return r.text!;
}

function selfOf(p: ApplyParts): SelfKnowledge {
  return { serverName: p.config.serverName, ports: [...new Set([...(p.ports ?? []), p.config.listen.port, DEFAULT_PORT])] };
}
