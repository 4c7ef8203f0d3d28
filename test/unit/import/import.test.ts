// `mws import` and the window's import step: real-format config files of each client (JSON, JSONC
// with comments and trailing commas, TOML), what is shown (never a value), what is written, and the
// client edit that puts Working Set in their place.
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { ROOT } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/app.js';
import { knownFiles } from '../../../src-main/core/import/clients.js';
import { applyImport, scanImports } from '../../../src-main/core/import/service.js';
import { vendorSlug } from '../../../src-main/core/import/read.js';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'import');
const URL = 'http://127.0.0.1:4484/mcp';

function layout() {
  const dir = tempDir('mws-import-');
  cpSync(FIXTURES, dir, { recursive: true });
  const where = { home: join(dir, 'home'), projectDir: join(dir, 'project'), platform: 'linux' as const };
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ serverName: 'toolbox', upstreams: { mail: { url: 'http://127.0.0.1:4483/mcp' } } }, null, 2));
  const raw = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
  const editor = new ConfigEditor(cfg, raw, join(dir, 'state'), async () => {});
  const config = validateConfig(raw, join(dir, 'state'));
  const parts = { config, editor, configPath: cfg, agentUrl: () => URL, now: () => Date.parse('2026-11-30T06:00:00Z'), where };
  return { dir, where, cfg, parts };
}

describe('finding client configs', () => {
  it('knows where each client keeps its servers on Linux, macOS and Windows', () => {
    const mac = knownFiles({ home: '/Users/d', platform: 'darwin' }).find((f) => f.client === 'claude-desktop')!;
    expect(mac.path).toBe('/Users/d/Library/Application Support/Claude/claude_desktop_config.json');
    const win = knownFiles({ home: 'C:/Users/d', platform: 'win32', appData: 'C:/Users/d/AppData/Roaming' }).find(
      (f) => f.client === 'claude-desktop',
    )!;
    expect(win.path.replace(/\\/g, '/')).toBe('C:/Users/d/AppData/Roaming/Claude/claude_desktop_config.json');
    const linux = knownFiles({ home: '/home/d', platform: 'linux', projectDir: '/w' }).map((f) => `${f.client}:${f.path}`);
    expect(linux).toEqual(
      expect.arrayContaining([
        'claude-desktop:/home/d/.config/Claude/claude_desktop_config.json',
        'claude-code:/home/d/.claude.json',
        'claude-code:/w/.mcp.json',
        'cursor:/home/d/.cursor/mcp.json',
        'vscode:/w/.vscode/mcp.json',
        `codex:${process.env.CODEX_HOME ? join(process.env.CODEX_HOME, 'config.toml') : '/home/d/.codex/config.toml'}`,
      ]),
    );
  });

  it("lists every client's servers with command or URL and env names, never a value", async () => {
    const { where } = layout();
    const sources = await scanImports({}, where);
    const byClient = Object.fromEntries(sources.map((s) => [`${s.client}:${s.scope}`, s.servers.map((x) => x.name)]));
    expect(byClient).toMatchObject({
      'claude-desktop:user': ['filesystem', 'github'],
      'claude-code:user': ['sentry', 'memory'],
      'claude-code:project': ['everything'],
      'cursor:user': ['Linear Issues', 'postgres'],
      'vscode:project': ['Perplexity', 'fetch', 'github'],
    });
    if (!process.env.CODEX_HOME) expect(byClient['codex:user']).toEqual(['context7', 'figma']);
    const all = sources.flatMap((s) => s.servers);
    expect(all.find((x) => x.name === 'github' && x.command === 'docker')).toMatchObject({
      kind: 'stdio',
      envNames: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    });
    expect(all.find((x) => x.name === 'sentry')).toMatchObject({
      kind: 'http',
      url: 'https://mcp.sentry.dev/mcp',
      headerNames: ['Authorization'],
    });
    expect(all.find((x) => x.name === 'memory')!.scope).toBe('local: /home/dana/app');
    expect(all.find((x) => x.name === 'Linear Issues')).toMatchObject({ vendor: 'linear-issues', notes: [expect.stringMatching(/SSE/)] });
    expect(all.find((x) => x.name === 'Perplexity')).toMatchObject({
      vendor: 'perplexity',
      notes: [expect.stringMatching(/\$\{input:…\}/)],
    });
    // Not a single secret travels: not in the scan, not in the JSON the window or CLI gets.
    expect(JSON.stringify(sources)).not.toMatch(/SECRETVALUE|hunter2/);
  });

  it('answers a broken file with its line, and an unknown client with the known ones', async () => {
    const { dir } = layout();
    const bad = join(dir, 'broken.json');
    writeFileSync(bad, '{\n  "mcpServers": {\n    "a": { "command": "x" \n  }\n');
    await expect(scanImports({ file: bad })).rejects.toThrow(/broken\.json is not valid JSON \(.+ on line \d, column \d+\)/);
    await expect(scanImports({ from: 'zed' })).rejects.toThrow(/no client "zed".*claude-desktop, claude-code, cursor, vscode, codex/);
    await expect(scanImports({ file: join(dir, 'nope.json') })).rejects.toThrow(/There is no file .*nope\.json/);
  });

  it('makes a client name a vendor slug only where it must', () => {
    expect(vendorSlug('github')).toBe('github');
    expect(vendorSlug('Linear Issues')).toBe('linear-issues');
    expect(vendorSlug('@acme/Tools_v2')).toBe('acme-tools-v2');
    expect(vendorSlug('!!!')).toBe('server');
  });
});

describe('importing', () => {
  it('Claude Desktop: adds the servers with their env, backs up the config, and gives the client edit', async () => {
    const { where, cfg, parts, dir } = layout();
    const file = join(where.home, '.config', 'Claude', 'claude_desktop_config.json');
    const r = await applyImport({ file }, parts);
    expect(r.added).toEqual([
      { name: 'filesystem', vendor: 'filesystem' },
      { name: 'github', vendor: 'github' },
    ]);
    const saved = JSON.parse(readFileSync(cfg, 'utf8'));
    expect(saved.upstreams.github).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'ghcr.io/github/github-mcp-server'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_SECRETVALUE123' },
    });
    expect(saved.upstreams.mail).toEqual({ url: 'http://127.0.0.1:4483/mcp' });
    expect(r.backup).toMatch(/config\.json\.2026-11-30T06-00-00-000Z\.bak$/);
    expect(JSON.parse(readFileSync(r.backup!, 'utf8')).upstreams).toEqual({ mail: { url: 'http://127.0.0.1:4483/mcp' } });
    // The client keeps its other settings; its servers become one entry (stdio-only Claude Desktop reaches HTTP through mcp-remote).
    const edited = parseJsonc(r.clientEdit.text);
    expect(edited).toEqual({ mcpServers: { toolbox: { command: 'npx', args: ['-y', 'mcp-remote', URL] } }, globalShortcut: 'Alt+Space' });
    // Nothing of the client's was written without asking.
    expect(readFileSync(file, 'utf8')).toContain('"filesystem"');
    expect(readdirSync(join(where.home, '.config', 'Claude'))).toEqual(['claude_desktop_config.json']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.bak'))).toHaveLength(1);
  });

  it('two different servers whose long names cut to the same upstream name both import, the second with a number', async () => {
    const { dir, parts, cfg } = layout();
    const file = join(dir, 'long.json');
    const a = 'acme-observability-and-incident-management-server-eu';
    const b = 'acme-observability-and-incident-management-server-us';
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          [a]: { command: 'obs', args: ['eu'] },
          [b]: { command: 'obs', args: ['us'] },
          'acme-observability-and-incident': { command: 'obs', args: ['x'] },
        },
      }),
    );
    const [scan] = await scanImports({ file }, parts.where);
    // The name a person gave is kept where it is a valid upstream name; a cut name gives way to it.
    expect(scan!.servers.map((x) => [x.vendor, x.blocked?.kind ?? null])).toEqual([
      ['acme-observability-and-inciden-2', null],
      ['acme-observability-and-inciden-3', null],
      ['acme-observability-and-incident', null],
    ]);
    const r = await applyImport({ file }, parts);
    expect(r.added.map((x) => x.name)).toEqual([a, b, 'acme-observability-and-incident']);
    expect(Object.keys(JSON.parse(readFileSync(cfg, 'utf8')).upstreams)).toEqual([
      'mail',
      'acme-observability-and-inciden-2',
      'acme-observability-and-inciden-3',
      'acme-observability-and-incident',
    ]);
  });

  it('Claude Code: user and local servers, with the claude commands that make the same change', async () => {
    const { where, parts, cfg } = layout();
    const r = await applyImport({ file: join(where.home, '.claude.json') }, parts);
    expect(r.added.map((a) => a.vendor)).toEqual(['sentry', 'memory']);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.sentry).toEqual({
      url: 'https://mcp.sentry.dev/mcp',
      headers: { Authorization: 'Bearer sntrys_SECRETVALUE' },
    });
    // Local scope is removed in its own project folder (claude mcp reads the scope of the folder it runs in).
    expect(r.clientEdit.commands).toEqual([
      'claude mcp remove sentry -s user',
      '(cd /home/dana/app && claude mcp remove memory -s local)',
      `claude mcp add --transport http toolbox ${URL} -s user`,
    ]);
    const edited = parseJsonc(r.clientEdit.text) as {
      mcpServers: object;
      numStartups: number;
      projects: Record<string, { mcpServers: object; hasTrustDialogAccepted: boolean }>;
    };
    expect(edited.mcpServers).toEqual({ toolbox: { type: 'http', url: URL } });
    expect(edited.projects['/home/dana/app']).toMatchObject({ mcpServers: {}, hasTrustDialogAccepted: true });
    expect(edited.numStartups).toBe(41);
  });

  it('VS Code JSONC: keeps the comments and inputs, and rewrites the file only when asked, after a backup', async () => {
    const { where, parts } = layout();
    const file = join(where.projectDir, '.vscode', 'mcp.json');
    const before = readFileSync(file, 'utf8');
    const dry = await applyImport({ file, names: ['fetch', 'github'], dryRun: true }, parts);
    expect(dry).toMatchObject({ dryRun: true, backup: null, added: [{ name: 'fetch' }, { name: 'github' }] });
    expect(readFileSync(file, 'utf8')).toBe(before);
    const r = await applyImport({ file, names: ['fetch', 'github'], writeClient: true }, parts);
    const after = readFileSync(file, 'utf8');
    expect(after).toBe(r.clientEdit.text);
    expect(after).toContain('// 💡 Inputs are prompted on first server start');
    expect(after).toContain('// https://github.com/ppl-ai/modelcontextprotocol/');
    expect(Object.keys((parseJsonc(after) as { servers: object }).servers)).toEqual(['Perplexity', 'toolbox']);
    expect(readFileSync(r.clientBackup!, 'utf8')).toBe(before);
  });

  it('Cursor: the entry is a bare url, and a name that is not a slug becomes one', async () => {
    const { where, parts, cfg } = layout();
    const r = await applyImport({ file: join(where.home, '.cursor', 'mcp.json') }, parts);
    expect(r.added).toEqual([
      { name: 'Linear Issues', vendor: 'linear-issues' },
      { name: 'postgres', vendor: 'postgres' },
    ]);
    expect(Object.keys(JSON.parse(readFileSync(cfg, 'utf8')).upstreams)).toEqual(['mail', 'linear-issues', 'postgres']);
    expect(parseJsonc(r.clientEdit.text)).toEqual({ mcpServers: { toolbox: { url: URL } } });
  });

  it('Codex TOML: removes the [mcp_servers.*] tables, keeps the rest and its comments', async () => {
    const { where, parts, cfg } = layout();
    const file = join(where.home, '.codex', 'config.toml');
    const r = await applyImport({ file }, parts);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.context7).toEqual({
      command: 'npx',
      args: ['-y', '@upstash/context7-mcp'],
      env: { CONTEXT7_API_KEY: 'c7_SECRETVALUE' },
    });
    const doc = parseToml(r.clientEdit.text) as { model: string; mcp_servers: object; profiles: object };
    // Codex gives up on a call after 60 s by default: the entry says how long a call may take.
    expect(doc.mcp_servers).toEqual({ toolbox: { url: URL, tool_timeout_sec: 180 } });
    expect(doc).toMatchObject({ model: 'gpt-5-codex', profiles: { fast: { model: 'gpt-5-mini' } } });
    expect(r.clientEdit.text).toContain('# Servers Codex starts for every session');
  });

  it('skips a name already taken and refuses names the file does not have', async () => {
    const { where, parts } = layout();
    const file = join(where.home, '.cursor', 'mcp.json');
    await applyImport({ file, names: ['postgres'] }, parts);
    const again = await applyImport({ file, names: ['postgres'] }, parts);
    expect(again.added).toEqual([]);
    expect(again.skipped).toEqual([
      {
        name: 'postgres',
        reason: 'it is the same server as the upstream "postgres" (same command, arguments and env), so it is not imported twice',
      },
    ]);
    await expect(applyImport({ file, names: ['nope'] }, parts)).rejects.toThrow(
      /has no server named "nope"; it has Linear Issues, postgres/,
    );
  });
});
