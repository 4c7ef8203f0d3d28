// `mws import`: finds the servers other MCP clients are set up with, adds the chosen ones as upstreams
// (through the running instance when there is one, so it serves them at once) and says how to point
// the client at Working Set instead.
import { homedir } from 'node:os';
import { MwsError } from '../../core/errors.js';
import { ConfigEditor } from '../../core/config/editor.js';
import { FileSecretStore } from '../../core/secrets/store.js';
import { silentLogger, stderrLogger } from '../../core/log.js';
import { StateLock } from '../../core/store/stateLock.js';
import { httpControlClient } from '../../core/control/http.js';
import { readToken } from '../../core/store/controlToken.js';
import type { ControlApi } from '../../core/control/api.js';
import { applyImport, scanImports, type ApplyArgs, type ApplyParts } from '../../core/import/service.js';
import type { ImportResult, ImportSource } from '../../core/import/types.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { baseUrl, INSTANCE_PROBE_MS } from '../instance.js';
import { plural, table } from '../table.js';
import type { Io } from '../output.js';

export type ImportFlags = ConfigFlags & { file: string | undefined; from: string | undefined; only: string | undefined; dryRun: boolean; editClient: boolean; agent: string | undefined; json: boolean };

type Importer = Pick<ControlApi, 'importScan' | 'importServers'> & { live: boolean };

const tilde = (p: string) => (p.startsWith(homedir()) ? `~${p.slice(homedir().length)}` : p);

/** The running instance if it answers, else the config file edited directly (no core started). */
async function importer(f: ImportFlags): Promise<Importer> {
  const loaded = await cliConfig(f);
  const token = await readToken(loaded.config.stateDir);
  if (token) {
    const api = httpControlClient(baseUrl(loaded.config), token, 30_000);
    try {
      await Promise.race([api.status({}), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), INSTANCE_PROBE_MS).unref())]);
      return { importScan: api.importScan, importServers: api.importServers, live: true };
    } catch {
      // no instance answers: edit the file
    }
  }
  const editor = new ConfigEditor(loaded.path, loaded.raw, loaded.config.stateDir, async () => {});
  return {
    live: false,
    importScan: (a) => scanImports(a),
    importServers: (a) =>
      importOffline(a, { config: loaded.config, editor, configPath: loaded.path, agentUrl: (id) => `${baseUrl(loaded.config)}/mcp${id === 'default' ? '' : `/${id}`}`, now: Date.now, secrets: new FileSecretStore(loaded.config.stateDir, stderrLogger) }),
  };
}

/**
 * With no instance running, the import edits config.json and secrets.json under the state folder's
 * lock, as `mws upstream set` does: two commands at once must not lose each other's secrets.
 */
export async function importOffline(a: ApplyArgs, parts: ApplyParts, lockWaitMs?: number): Promise<ImportResult> {
  if (a.dryRun) return applyImport(a, parts);
  const lock = await StateLock.acquire(parts.config.stateDir, { command: 'mws import', ...(lockWaitMs === undefined ? {} : { waitMs: lockWaitMs }) }, silentLogger);
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
    if (s.error) lines.push(`  cannot read it: ${s.error}`);
    else if (!s.servers.length) lines.push('  no servers');
    else {
      lines.push(table(['  name', 'kind', 'command or URL', 'env / headers (names only)'], s.servers.map((x) => [
        `  ${x.name}${x.vendor !== x.name ? ` → ${x.vendor}` : ''}`,
        x.kind,
        x.url ?? [x.command, ...x.args].filter(Boolean).join(' '),
        [...x.envNames, ...x.headerNames.map((h) => `${h} (header)`)].join(', ') || '—',
      ])));
      for (const x of s.servers) for (const n of x.notes) lines.push(`  note: ${x.name}: ${n}.`);
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

function resultText(r: ImportResult, live: boolean): string {
  const lines: string[] = [];
  const verb = r.dryRun ? 'Would add' : 'Added';
  if (r.added.length) lines.push(`${verb} ${plural(r.added.length, 'upstream')} from ${tilde(r.file)}: ${r.added.map((a) => (a.name === a.vendor ? a.vendor : `${a.name} as ${a.vendor}`)).join(', ')}.`);
  else lines.push(`Nothing to add from ${tilde(r.file)}.`);
  for (const s of r.skipped) lines.push(`  skipped ${s.name}: ${s.reason}.`);
  if (r.backup) lines.push(`Your Working Set config was backed up to ${tilde(r.backup)} first.`);
  if (!r.dryRun && r.added.length) lines.push(live ? 'The running instance serves them now.' : 'They are served from the next `mws serve`.');
  if (r.secretsStored?.length) lines.push(`Their secret values went to the secret store, not config.json: ${r.secretsStored.join(', ')}.`);
  if (!r.added.length) return lines.join('\n');
  const e = r.clientEdit;
  lines.push('', `Then take them out of the client, so its tools come through Working Set only: ${e.summary}`);
  if (r.clientBackup) lines.push(`Done: ${tilde(e.file)} was rewritten; the old one is ${tilde(r.clientBackup)}.`);
  else if (e.commands.length) lines.push('Run:', ...e.commands.map((c) => `  ${c}`));
  else lines.push(`${tilde(e.file)} should then read (or pass --edit-client to have it rewritten, with a backup):`, '', e.text.trimEnd());
  return lines.join('\n');
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
    io.out('To add them: mws import --from CLIENT (one of claude-desktop, claude-code, cursor, vscode, codex) or mws import FILE; --dry-run shows the change first.');
    return 0;
  }
  if (!withServers.length) throw new MwsError('usage', f.file ? `${f.file} lists no MCP servers.` : `No ${f.from} config with servers was found on this machine; name the file: mws import FILE`);
  const names = f.only?.split(',').map((x) => x.trim()).filter(Boolean);
  const results: ImportResult[] = [];
  for (const s of withServers) {
    const mine = names ? s.servers.filter((x) => names.includes(x.name)).map((x) => x.name) : undefined;
    if (mine && !mine.length) continue;
    results.push(await imp.importServers({ file: s.file, ...(mine ? { names: mine } : {}), dryRun: f.dryRun, writeClient: f.editClient, projectDir, ...(f.agent ? { agent: f.agent } : {}) }));
  }
  if (names && !results.length) throw new MwsError('usage', `No server named ${names.join(', ')} was found; \`mws import\` lists what there is.`);
  if (f.json) io.out(JSON.stringify({ sources: withServers, results }));
  else {
    io.out(sourcesTable(withServers));
    io.out('');
    io.out(results.map((r) => resultText(r, imp.live)).join('\n\n'));
  }
  return 0;
}
