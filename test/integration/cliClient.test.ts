// `mws client connect|list` and `mws doctor` against a real `mws serve`, on a temporary HOME holding
// the five clients' files in their real formats (comments, other entries, Codex's other tables).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { ROOT, runMws, spawnMws, stdioFixture, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir, TEST_LIST_MS } from '../helpers/app.js';

let serve: Running | undefined;
let dir: string;
let home: string;
let cfg: string;
let base: string;
const SLOW = { timeout: 180_000 };
const TOKEN = 'codex-agent-token-0123456789abcdef';
const env = () => ({ HOME: home, CODEX_HOME: join(home, '.codex'), APPDATA: '' });
const mws = (command: string, ...args: string[]) => runMws([command, '--config', cfg, ...args], env());
const file = (...p: string[]) => join(home, ...p);
const backups = (path: string) => readdirSync(dirname(path)).filter((n) => n.startsWith(`${path.split('/').pop()}.bak-`));
const VSCODE = () => file('.config', 'Code', 'User', 'mcp.json');

beforeAll(async () => {
  dir = tempDir();
  home = join(dir, 'home');
  cpSync(join(ROOT, 'test', 'fixtures', 'import', 'home'), home, { recursive: true });
  // Cursor still names Working Set at a port it no longer uses.
  writeFileSync(
    file('.cursor', 'mcp.json'),
    JSON.stringify(
      { mcpServers: { 'Linear Issues': { url: 'https://mcp.linear.app/sse' }, toolbox: { url: 'http://127.0.0.1:4491/mcp' } } },
      null,
      2,
    ),
  );
  mkdirSync(dirname(VSCODE()), { recursive: true });
  writeFileSync(
    VSCODE(),
    '{\n  // my servers\n  "servers": {\n    "time": { "type": "stdio", "command": "uvx", "args": ["mcp-server-time"] },\n  },\n}\n',
  );
  cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { s: stdioFixture() },
      stateDir: join(dir, 'state'),
      listen: { port: 0 },
      agents: [
        { id: 'default', approvals: 'allow' },
        { id: 'codex', token: TOKEN },
      ],
      timeouts: { listMs: TEST_LIST_MS },
    }),
  );
  serve = spawnMws(['serve', '--config', cfg], env());
  base = await listeningBase(serve);
}, 120_000);
afterAll(async () => {
  await serve?.kill();
});

describe('mws client list and mws doctor before connecting', () => {
  it('list says which clients point here (none yet) and what to run', SLOW, async () => {
    const r = await mws('client', 'list');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Working Set runs at ${base}.`);
    expect(r.out).toMatch(/^Cursor\s+\S+\.cursor\/mcp\.json\s+no — mws client connect cursor$/m);
    expect(r.out).toMatch(/^Claude Code\s+\S+\.claude\.json\s+no — mws client connect claude-code$/m);
    const j = JSON.parse((await mws('client', 'list', '--json')).out) as Array<{ client: string; links: unknown[]; stale: unknown[] }>;
    expect(j.find((c) => c.client === 'cursor')?.stale).toEqual([{ name: 'toolbox', url: 'http://127.0.0.1:4491/mcp' }]);
  });

  it('doctor names the stale client entry with its fix, and exits 1', SLOW, async () => {
    const r = await mws('doctor');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^check\s+result\s+finding$/m);
    expect(r.out).toMatch(/config\s+ok\s+The config .*config\.json is valid\./);
    expect(r.out).toContain(`Working Set is running at ${base}.`);
    expect(r.out).toMatch(/state folder\s+ok\s+The state folder .* is writable\./);
    expect(r.out).toMatch(/upstream s\s+ok\s+Upstream "s" is up with 8 tools\./);
    expect(r.out).toMatch(
      /client cursor\s+problem\s+Cursor's entry "toolbox" in \S+ points at http:\/\/127\.0\.0\.1:4491\/mcp, not at this instance: `mws client connect cursor` points it here\./,
    );
    expect(r.out).toMatch(/search model\s+ok/);
    expect(r.out).toMatch(/^1 problem to fix\.$/m);
    const j = JSON.parse((await mws('doctor', '--json')).out) as { problems: number; findings: Array<{ check: string; level: string }> };
    expect(j.problems).toBe(1);
  });
});

describe('mws client connect', () => {
  it('Cursor: replaces the stale entry, keeps the others, backs up first, and a second run changes nothing', SLOW, async () => {
    const path = file('.cursor', 'mcp.json');
    const before = readFileSync(path, 'utf8');
    const r = await mws('client', 'connect', 'cursor');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`"toolbox" now points at ${base}/mcp`);
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(after.mcpServers).toEqual({ 'Linear Issues': { url: 'https://mcp.linear.app/sse' }, toolbox: { url: `${base}/mcp` } });
    expect(backups(path)).toHaveLength(1);
    expect(readFileSync(join(dirname(path), backups(path)[0]!), 'utf8')).toBe(before);

    const again = await mws('client', 'connect', 'cursor');
    expect(again.out).toMatch(/already points "toolbox" at .*; nothing changed\./);
    expect(backups(path)).toHaveLength(1);
  });

  it('Claude Desktop: through mcp-remote, its other keys kept', SLOW, async () => {
    const path = file('.config', 'Claude', 'claude_desktop_config.json');
    expect((await mws('client', 'connect', 'claude-desktop')).code).toBe(0);
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(after.globalShortcut).toBe('Alt+Space');
    expect(Object.keys(after.mcpServers)).toEqual(['filesystem', 'github', 'toolbox']);
    expect(after.mcpServers.toolbox).toEqual({ command: 'npx', args: ['-y', 'mcp-remote', `${base}/mcp`] });
  });

  it('VS Code: its comments stay; --agent codex sends the agent token', SLOW, async () => {
    const r = await mws('client', 'connect', 'vscode', '--agent', 'codex');
    expect(r.code, r.err).toBe(0);
    const text = readFileSync(VSCODE(), 'utf8');
    expect(text).toContain('// my servers');
    const doc = parseJsonc(text) as { servers: Record<string, unknown> };
    expect(doc.servers.time).toBeDefined();
    expect(doc.servers.toolbox).toEqual({ type: 'http', url: `${base}/mcp/codex/mcp`, headers: { Authorization: `Bearer ${TOKEN}` } });
  });

  it('Codex: a [mcp_servers.toolbox] table with the token, the other tables and comments kept', SLOW, async () => {
    const path = file('.codex', 'config.toml');
    expect((await mws('client', 'connect', 'codex', '--agent', 'codex')).code).toBe(0);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('# Servers Codex starts for every session');
    const doc = parseToml(text) as { model: string; mcp_servers: Record<string, Record<string, unknown>>; profiles: unknown };
    expect(doc.model).toBe('gpt-5-codex');
    expect(Object.keys(doc.mcp_servers).sort()).toEqual(['context7', 'figma', 'toolbox']);
    expect(doc.mcp_servers.toolbox).toMatchObject({ url: `${base}/mcp/codex/mcp`, http_headers: { Authorization: `Bearer ${TOKEN}` } });
    const again = await mws('client', 'connect', 'codex', '--agent', 'codex');
    expect(again.out).toMatch(/nothing changed/);
    expect(backups(path)).toHaveLength(1);
  });

  it('Claude Code: prints the exact claude mcp add command, and edits nothing', SLOW, async () => {
    const path = file('.claude.json');
    const before = readFileSync(path, 'utf8');
    const r = await mws('client', 'connect', 'claude-code');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`  claude mcp add --transport http toolbox ${base}/mcp -s user`);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('says a wrong client in one sentence', SLOW, async () => {
    const r = await mws('client', 'connect', 'cursr');
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe(
      'mws: There is no client "cursr"; did you mean cursor? mws client connect takes one of claude-desktop, claude-code, cursor, vscode, codex.',
    );
  });
});

describe('after connecting', () => {
  it('list shows each connected client and its agent; doctor finds no problem', SLOW, async () => {
    const r = await mws('client', 'list');
    expect(r.out).toMatch(/^Cursor\s+\S+\s+yes: agent default \(as "toolbox"\)$/m);
    expect(r.out).toMatch(/^VS Code\s+\S+\s+yes: agent codex \(as "toolbox"\)$/m);
    expect(r.out).toMatch(/^Codex\s+\S+\s+yes: agent codex \(as "toolbox"\)$/m);
    expect(r.out).toMatch(/^Claude Desktop\s+\S+\s+yes: agent default \(as "toolbox"\)$/m);
    const d = await mws('doctor');
    expect(d.out).toMatch(/client cursor\s+ok\s+Cursor points at agent default/);
    expect(d.out).toMatch(/client claude-code\s+note\s+Claude Code is set up here but does not use Working Set/);
    expect(d.code, d.out).toBe(0);
  });
});
