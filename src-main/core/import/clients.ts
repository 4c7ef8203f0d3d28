// Where the MCP clients people already use keep their servers, per OS. `mws import` and the window's
// "Import servers" step read these files; they are never written without an explicit request.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ClientId, FileFormat } from './types.js';

export type { ClientId, FileFormat };
export const CLIENT_IDS: readonly ClientId[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'codex'];

export const CLIENT_NAMES: Record<ClientId, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  codex: 'Codex',
};

export type KnownFile = { client: ClientId; path: string; format: FileFormat; scope: string };

export type Where = { home?: string; projectDir?: string; platform?: NodeJS.Platform; appData?: string };

/** Every file a client may keep servers in, on this OS, for the user and the project folder. */
export function knownFiles(where: Where = {}): KnownFile[] {
  const home = where.home ?? homedir();
  const platform = where.platform ?? process.platform;
  const appData = where.appData ?? process.env.APPDATA ?? join(home, 'AppData', 'Roaming');
  const appConfig =
    platform === 'darwin' ? join(home, 'Library', 'Application Support') : platform === 'win32' ? appData : join(home, '.config');
  const files: KnownFile[] = [
    { client: 'claude-desktop', path: join(appConfig, 'Claude', 'claude_desktop_config.json'), format: 'mcpServers', scope: 'user' },
    { client: 'claude-code', path: join(home, '.claude.json'), format: 'claude-code-user', scope: 'user' },
    { client: 'cursor', path: join(home, '.cursor', 'mcp.json'), format: 'mcpServers', scope: 'user' },
    { client: 'vscode', path: join(appConfig, 'Code', 'User', 'mcp.json'), format: 'servers', scope: 'user' },
    { client: 'codex', path: join(process.env.CODEX_HOME ?? join(home, '.codex'), 'config.toml'), format: 'codex-toml', scope: 'user' },
  ];
  if (where.projectDir) {
    files.push(
      { client: 'claude-code', path: join(where.projectDir, '.mcp.json'), format: 'mcpServers', scope: 'project' },
      { client: 'cursor', path: join(where.projectDir, '.cursor', 'mcp.json'), format: 'mcpServers', scope: 'project' },
      { client: 'vscode', path: join(where.projectDir, '.vscode', 'mcp.json'), format: 'servers', scope: 'project' },
    );
  }
  return files;
}

/** The format of a file named on the command line, from its name and content. */
export function guessFormat(path: string, text: string): FileFormat {
  if (/\.toml$/i.test(path)) return 'codex-toml';
  if (/(^|[\\/])\.claude\.json$/.test(path)) return 'claude-code-user';
  if (/"servers"\s*:/.test(text) && !/"mcpServers"\s*:/.test(text)) return 'servers';
  return 'mcpServers';
}

export function clientOfFile(path: string, format: FileFormat): ClientId | null {
  if (format === 'codex-toml') return 'codex';
  if (format === 'claude-code-user' || /(^|[\\/])\.mcp\.json$/.test(path)) return 'claude-code';
  if (/claude_desktop_config\.json$/.test(path)) return 'claude-desktop';
  if (/[\\/]\.cursor[\\/]/.test(path)) return 'cursor';
  if (format === 'servers') return 'vscode';
  return null;
}
