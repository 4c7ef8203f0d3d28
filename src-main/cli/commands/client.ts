// `mws client connect CLIENT [--agent A]` and `mws client list`: wire a client to an agent in one
// command, and see which clients point here. The client's files are the user's own, so this process
// (the user's) reads and writes them; the instance only says its URLs and tokens.
import { mkdir, readFile, rename, writeFile, copyFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CLIENT_IDS, CLIENT_NAMES, knownFiles, type ClientId, type KnownFile } from '../../core/import/clients.js';
import { agentOfEntry, linksIn, planConnect, type Link } from '../../core/import/connect.js';
import { readServers } from '../../core/import/read.js';
import { clientToolTimeoutSec } from '../../core/import/clientTimeouts.js';
import { backupStamp } from '../../core/config/backups.js';
import { shellLine } from '../../core/printable.js';
import { DEFAULT_AGENT_ID } from '../../core/config/schema.js';
import { MwsError } from '../../core/errors.js';
import type { Config } from '../../core/config/schema.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { runningInstance } from '../instance.js';
import type { Io } from '../output.js';
import { table } from '../table.js';
import { closest } from '../suggest.js';
import { instanceOf, type Instance } from '../daily/here.js';

type Flags = ConfigFlags & { json: boolean; agent: string | undefined };

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MwsError('usage', `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`, { path });
  }
}

/** The user-wide file of each client (what connect edits and list reads first). */
function userFile(client: ClientId): KnownFile {
  return knownFiles().find((f) => f.client === client && f.scope === 'user')!;
}

/**
 * `stale`: entries that look like Working Set's (its entry name, or an agent path on loopback) but reach
 * another port — an old port, or an instance that is not this one.
 */
export type ClientState = {
  client: ClientId;
  name: string;
  file: string;
  exists: boolean;
  links: Link[];
  stale: Array<{ name: string; url: string }>;
  error: string | null;
};

/** Entries that look like ours but do not reach here. */
function staleIn(text: string, f: KnownFile, inst: Instance, serverName: string): ClientState['stale'] {
  return readServers(text, f.format, f.path).flatMap((x) => {
    if (agentOfEntry(x, inst.here) !== undefined) return [];
    const target = x.url ?? x.args.find((a) => /^https?:\/\//.test(a)) ?? null;
    if (target === null) return [];
    const loopbackAgent = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/mcp(\/[^/]+)?(\/mcp)?\/?$/.test(target);
    return x.name === serverName || loopbackAgent ? [{ name: x.name, url: target }] : [];
  });
}

/** Each client's files (the user's, and this folder's project files) and the entries in them that reach this instance. */
export async function clientStates(inst: Instance, serverName: string, projectDir = process.cwd()): Promise<ClientState[]> {
  const out: ClientState[] = [];
  for (const f of knownFiles({ projectDir })) {
    const text = await readText(f.path).catch((err: Error) => err);
    if (text === undefined && f.scope !== 'user') continue;
    const base = { client: f.client, name: CLIENT_NAMES[f.client], file: f.path };
    if (text instanceof Error) out.push({ ...base, exists: true, links: [], stale: [], error: text.message });
    else if (text === undefined) out.push({ ...base, exists: false, links: [], stale: [], error: null });
    else {
      try {
        out.push({
          ...base,
          exists: true,
          links: linksIn(text, f.format, f.path, inst.here),
          stale: staleIn(text, f, inst, serverName),
          error: null,
        });
      } catch (err) {
        out.push({ ...base, exists: true, links: [], stale: [], error: (err as Error).message });
      }
    }
  }
  return out;
}

export async function instance(config: Config): Promise<Instance> {
  const api = await runningInstance(config);
  if (!api && config.listen.port === 0)
    throw new MwsError(
      'usage',
      'The config asks for any free port (listen.port 0), so the address clients need is known only once Working Set runs: start it (`mws serve`), then run this again.',
    );
  return instanceOf(config, api);
}

export async function runClientList(io: Io, f: Flags): Promise<number> {
  const { config } = await cliConfig(f);
  const inst = await instance(config);
  const states = await clientStates(inst, config.serverName);
  if (f.json) {
    io.out(JSON.stringify(states));
    return 0;
  }
  io.out(`Working Set ${inst.running ? 'runs' : 'will run'} at ${inst.base}.`);
  io.out(
    table(
      ['client', 'file', 'points here'],
      states.map((s) => [
        s.name,
        s.file,
        s.error
          ? `cannot read it: ${s.error}`
          : !s.exists
            ? 'no file (not set up here)'
            : s.links.length
              ? s.links.map((l) => `yes: agent ${l.agent} (as "${l.name}"${l.scope.startsWith('local') ? `, ${l.scope}` : ''})`).join('; ')
              : `no — mws client connect ${s.client}`,
      ]),
    ),
  );
  return 0;
}

function clientId(name: string | undefined): ClientId {
  if (name && (CLIENT_IDS as readonly string[]).includes(name)) return name as ClientId;
  const near = name ? closest(name, [...CLIENT_IDS]) : undefined;
  throw new MwsError(
    'usage',
    `${name ? `There is no client "${name}"${near ? `; did you mean ${near}?` : '.'}` : 'Name the client.'} mws client connect takes one of ${CLIENT_IDS.join(', ')}.`,
  );
}

export async function runClientConnect(io: Io, f: Flags & { client: string | undefined; now?: number }): Promise<number> {
  const client = clientId(f.client);
  const loaded = await cliConfig(f);
  const inst = await instance(loaded.config);
  const agent = f.agent ?? DEFAULT_AGENT_ID;
  if (!inst.agents.includes(agent))
    throw new MwsError('agent_not_found', `No agent "${agent}"; the agents are ${inst.agents.join(', ')}.`, { agent });
  const url = await inst.url(agent);
  const headers = await inst.headers(agent);
  const name = loaded.config.serverName;
  const file = userFile(client);

  if (client === 'claude-code') {
    // Claude Code keeps its servers in a file it also rewrites itself: its own command is the safe edit.
    const text = await readText(file.path);
    const user = text === undefined ? [] : readServers(text, file.format, file.path).filter((x) => x.scope === 'user');
    const ours = user.filter((x) => agentOfEntry(x, inst.here) !== undefined);
    const done = ours.length === 1 && ours[0]!.name === name && ours[0]!.url === url && headers === undefined;
    // `claude mcp add` refuses a name it has: the old entry goes first, and so do others reaching here.
    const existing = [...new Set([...ours.map((x) => x.name), ...user.filter((x) => x.name === name).map((x) => x.name)])];
    const commands = [
      ...existing.map((n) => shellLine(['claude', 'mcp', 'remove', n, '-s', 'user'])!),
      shellLine([
        'claude',
        'mcp',
        'add',
        '--transport',
        'http',
        name,
        url,
        '-s',
        'user',
        ...Object.entries(headers ?? {}).flatMap(([k, v]) => ['--header', `${k}: ${v}`]),
      ])!,
    ];
    if (f.json) io.out(JSON.stringify({ client, agent, url, file: file.path, connected: done, commands: done ? [] : commands }));
    else if (done) io.out(`Claude Code already points "${name}" at ${url} (agent ${agent}); nothing to do.`);
    else
      io.out(
        `Run this to point Claude Code at agent ${agent} (it edits ${file.path} itself):\n${commands.map((c) => `  ${c}`).join('\n')}`,
      );
    return 0;
  }

  const text = await readText(file.path);
  const plan = planConnect({
    text,
    format: file.format,
    client,
    file: file.path,
    entryName: name,
    url,
    ...(headers ? { headers } : {}),
    here: inst.here,
    toolTimeoutSec: clientToolTimeoutSec(loaded.config.timeouts),
  });
  if (!plan.editable) throw new MwsError('usage', `Nothing was changed: ${plan.summary}`, { file: file.path });
  let backup: string | null = null;
  if (plan.changed) {
    await mkdir(dirname(file.path), { recursive: true });
    if (text !== undefined) {
      backup = `${file.path}.bak-${backupStamp(f.now ?? Date.now())}`;
      await copyFile(file.path, backup);
    }
    // Written beside it and renamed over it: a crash never leaves the client half a file.
    const tmp = `${file.path}.mws-${process.pid}.tmp`;
    await writeFile(tmp, plan.text, { mode: 0o600 });
    await rename(tmp, file.path);
  }
  if (f.json) io.out(JSON.stringify({ client, agent, url, file: file.path, changed: plan.changed, backup, replaced: plan.replaced }));
  else {
    io.out(plan.summary);
    if (backup) io.out(`The file as it was is kept as ${backup}.`);
    if (plan.changed) io.out(`Restart ${CLIENT_NAMES[client]} (or reload its MCP servers) to pick it up.`);
  }
  return 0;
}
