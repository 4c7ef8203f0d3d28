// `mws import`: finds the servers other MCP clients are set up with, adds the chosen ones as upstreams
// (through the running instance when there is one, so it serves them at once) and says how to point
// the client at Working Set instead.
import { homedir } from 'node:os';
import { MwsError } from '../../core/errors.js';
import { ConfigEditor } from '../../core/config/editor.js';
import { FileSecretStore } from '../../core/secrets/store.js';
import { silentLogger, stderrLogger } from '../../core/log.js';
import { lockHolder, StateLock } from '../../core/store/stateLock.js';
import { httpControlClient } from '../../core/control/transport/httpClient.js';
import { readToken } from '../../core/store/controlToken.js';
import type { ControlApi } from '../../core/control/api.js';
import { applyImport, scanImports, type ApplyArgs, type ApplyParts } from '../../core/import/service.js';
import { controlClient } from '../../core/control/envelope.js';
import type { ImportResult, ImportSource } from '../../core/import/types.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { baseUrl, INSTANCE_PROBE_MS } from '../instance.js';
import { plural, table } from '../table.js';
import { printable, shellLine } from '../../core/printable.js';
import { DEFAULT_PORT } from '../../core/config/schema.js';
import { agentUrl } from '../../core/config/agentUrl.js';
import type { Io } from '../output.js';

export type ImportFlags = ConfigFlags & {
  file: string | undefined;
  from: string | undefined;
  only: string | undefined;
  dryRun: boolean;
  editClient: boolean;
  agent: string | undefined;
  json: boolean;
  as?: string | undefined;
};

type Importer = Pick<ControlApi, 'importScan' | 'importServers'> & { live: boolean };

/** A path for people: the home folder as ~, control characters escaped. */
const tilde = (p: string) => printable(p.startsWith(homedir()) ? `~${p.slice(homedir().length)}` : p);
/** Text from a client's file for the terminal: its control characters escaped, its lines kept. */
const shown = (t: string) => t.split('\n').map(printable).join('\n');

/** The running instance if it answers, else the config file edited directly (no core started). */
async function importer(f: ImportFlags): Promise<Importer> {
  const loaded = await cliConfig(f);
  const token = await readToken(loaded.config.stateDir);
  // A running instance says where it listens (its lock record): `mws serve --port N` is not the config's port.
  const running = (await lockHolder(loaded.config.stateDir))?.record?.url;
  const url = running ?? baseUrl(loaded.config);
  if (token) {
    const api = httpControlClient(url, token, 30_000);
    try {
      // The probe has its own short deadline (the request's AbortSignal.timeout); the imports get 30 s.
      await httpControlClient(url, token, INSTANCE_PROBE_MS).status({});
      return { importScan: api.importScan, importServers: api.importServers, live: true };
    } catch {
      // no instance answers: edit the file
    }
  }
  const editor = new ConfigEditor(loaded.path, loaded.raw, loaded.config.stateDir, async () => {});
  // Checked against the same schemas as a running instance's /control (control/contract.ts).
  return {
    live: false,
    ...controlClient({
      importScan: (a) =>
        scanImports(
          a,
          {},
          {
            self: { serverName: loaded.config.serverName, ports: [loaded.config.listen.port, DEFAULT_PORT] },
            upstreams: (editor.current().upstreams ?? {}) as Record<string, unknown>,
          },
        ),
      importServers: (a) =>
        importOffline(a, {
          config: loaded.config,
          editor,
          configPath: loaded.path,
          agentUrl: (id) => agentUrl(baseUrl(loaded.config), id),
          now: Date.now,
          secrets: new FileSecretStore(loaded.config.stateDir, stderrLogger),
        }),
    }),
  };
}

/**
 * With no instance running, the import edits config.json and secrets.json under the state folder's
 * lock, as `mws upstream set` does: two commands at once must not lose each other's secrets.
 */
export async function importOffline(a: ApplyArgs, parts: ApplyParts, lockWaitMs?: number): Promise<ImportResult> {
  if (a.dryRun) return applyImport(a, parts);
  const lock = await StateLock.acquire(
    parts.config.stateDir,
    { command: 'mws import', ...(lockWaitMs === undefined ? {} : { waitMs: lockWaitMs }) },
    silentLogger,
  );
  try {
    return await applyImport(a, parts);
  } finally {
    await lock.release();
  }
}

export function sourcesTable(sources: ImportSource[]): string {
  const lines: string[] = [];
  for (const s of sources) {
    lines.push(`${s.clientName} — ${tilde(s.file)}${s.scope === 'project' ? ' (this folder)' : ''}:`);
    if (s.error) lines.push(`  cannot read it: ${printable(s.error)}`);
    else if (!s.servers.length) lines.push('  no servers');
    else {
      lines.push(
        table(
          ['  name', 'kind', 'command or URL', 'env / headers (names only)'],
          s.servers.map((x) => [
            `  ${printable(x.name)}${x.vendor !== x.name ? ` → ${x.vendor}` : ''}`,
            x.kind,
            printable(x.url ?? [x.command, ...x.args].filter(Boolean).join(' ')),
            printable([...x.envNames, ...x.headerNames.map((h) => `${h} (header)`)].join(', ')) || '—',
          ]),
        ),
      );
      for (const x of s.servers) for (const n of x.notes) lines.push(`  note: ${printable(x.name)}: ${printable(n)}.`);
      for (const x of s.servers)
        if (x.blocked)
          lines.push(
            `  not offered: ${printable(x.name)}: ${printable(x.blocked.reason)}${x.blocked.suggested ? ` (to import it too: --as ${shellArg(`${x.name}=${x.blocked.suggested}`)})` : ''}.`,
          );
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

/** A name=new pair for a flag, quoted for the shell (or shown escaped when no quoting can make it safe). */
const shellArg = (w: string) => shellLine([w]) ?? printable(w);

function resultText(r: ImportResult, live: boolean): string {
  const lines: string[] = [];
  const verb = r.dryRun ? 'Would add' : 'Added';
  if (r.added.length)
    lines.push(
      `${verb} ${plural(r.added.length, 'upstream')} from ${tilde(r.file)}: ${r.added.map((a) => (a.name === a.vendor ? a.vendor : `${printable(a.name)} as ${a.vendor}`)).join(', ')}.`,
    );
  else lines.push(`Nothing to add from ${tilde(r.file)}.`);
  for (const v of r.replaced ?? []) lines.push(`  ${r.dryRun ? 'would replace' : 'replaced'} the sample "${v}" that mws init wrote.`);
  for (const s of r.skipped) lines.push(`  skipped ${printable(s.name)}: ${printable(s.reason)}.`);
  if (r.backup) lines.push(`Your Working Set config was backed up to ${tilde(r.backup)} first.`);
  if (!r.dryRun && r.added.length)
    lines.push(live ? 'The running instance serves them now.' : 'They are served from the next `mws serve`.');
  if (r.secretsStored?.length) lines.push(`Their secret values went to the secret store, not config.json: ${r.secretsStored.join(', ')}.`);
  if (!r.added.length) return lines.join('\n');
  const e = r.clientEdit;
  lines.push('', `Then take them out of the client, so its tools come through Working Set only: ${shown(e.summary)}`);
  if (r.clientBackup) lines.push(`Done: ${tilde(e.file)} was rewritten; the old one is ${tilde(r.clientBackup)}.`);
  else if (!e.editable) return lines.join('\n');
  else if (e.commands.length) lines.push('Run:', ...e.commands.map((c) => `  ${c}`));
  else
    lines.push(
      `${tilde(e.file)} should then read (or pass --edit-client to have it rewritten, with a backup):`,
      '',
      shown(e.text.trimEnd()),
    );
  return lines.join('\n');
}

/** `--as old=new,old2=new2`: the client's name of a server → the upstream name it gets here. */
function parseAs(v: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const i = pair.lastIndexOf('=');
    if (i <= 0 || i === pair.length - 1)
      throw new MwsError('usage', `--as takes NAME=NEW pairs, comma-separated (got "${printable(pair)}"): e.g. --as memory=memory-work.`);
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

export async function runImport(io: Io, f: ImportFlags): Promise<number> {
  const imp = await importer(f);
  const projectDir = process.cwd();
  const sources = await imp.importScan({ ...(f.file ? { file: f.file } : {}), ...(f.from ? { from: f.from } : {}), projectDir });
  const withServers = sources.filter((s) => s.servers.length);
  if (!f.file && !f.from) {
    if (f.json) {
      io.out(JSON.stringify(sources));
      return 0;
    }
    if (!sources.length) {
      io.out('No MCP client config was found here (Claude Desktop, Claude Code, Cursor, VS Code, Codex). Name the file: mws import FILE');
      return 0;
    }
    io.out(sourcesTable(sources));
    io.out('');
    io.out(
      'To add them: mws import --from CLIENT (one of claude-desktop, claude-code, cursor, vscode, codex) or mws import FILE; --dry-run shows the change first.',
    );
    return 0;
  }
  if (!withServers.length)
    throw new MwsError(
      'usage',
      f.file
        ? `${f.file} lists no MCP servers.`
        : `No ${f.from} config with servers was found on this machine; name the file: mws import FILE`,
    );
  const names = f.only
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const renames = parseAs(f.as);
  const results: ImportResult[] = [];
  for (const s of withServers) {
    const mine = names ? s.servers.filter((x) => names.includes(x.name)).map((x) => x.name) : undefined;
    if (mine && !mine.length) continue;
    const as = Object.fromEntries(Object.entries(renames).filter(([n]) => s.servers.some((x) => x.name === n)));
    results.push(
      await imp.importServers({
        file: s.file,
        ...(mine ? { names: mine } : {}),
        dryRun: f.dryRun,
        writeClient: f.editClient,
        projectDir,
        ...(f.agent ? { agent: f.agent } : {}),
        ...(Object.keys(as).length ? { as } : {}),
      }),
    );
  }
  if (names && !results.length)
    throw new MwsError('usage', `No server named ${names.map(printable).join(', ')} was found; \`mws import\` lists what there is.`);
  const unmatched = Object.keys(renames).filter((n) => !withServers.some((x) => x.servers.some((y) => y.name === n)));
  if (unmatched.length)
    throw new MwsError(
      'usage',
      `--as names ${unmatched.map((n) => `"${printable(n)}"`).join(', ')}, but no file read here has a server of that name; \`mws import\` lists what there is.`,
    );
  if (f.json) io.out(JSON.stringify({ sources: withServers, results }));
  else {
    io.out(sourcesTable(withServers));
    io.out('');
    io.out(results.map((r) => resultText(r, imp.live)).join('\n\n'));
  }
  return 0;
}
