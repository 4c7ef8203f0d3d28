// Client configs as a person who has used MCP for a while has them: five clients, 20+ servers in one
// file, long names, long commands and arguments, env values, URLs with long paths and queries, a
// Claude Code file with many projects, VS Code `inputs`, Codex TOML, the same server under two names,
// and Working Set's own entries (by URL and through mcp-remote). For the Import screen at 800 px.
// Nothing here reaches past loopback once imported: the commands are absolute paths that do not exist
// (they fail at once, ENOENT) and the URLs name a closed loopback port, with realistic lengths.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const LONG_PKG = '@acme-internal-platform-engineering/mcp-server-observability-and-incident-management-suite';
const LONG_PATH = '/home/dana/work/clients/northwind-traders/monorepo/services/payments-reconciliation-service/config/mcp';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** One stdio server with long arguments and env values. */
function stdio(i: number): Record<string, unknown> {
  return {
    command:
      i % 3 === 0
        ? '/opt/acme/toolchains/node-22.11.0/bin/npx'
        : i % 3 === 1
          ? '/opt/acme/toolchains/python-3.12/bin/uvx'
          : '/opt/homebrew/Cellar/node/22.11.0/libexec/bin/node',
    args:
      i % 3 === 0
        ? ['-y', `${LONG_PKG}-${i}@1.${i}.0`, '--workspace', `${LONG_PATH}/workspace-${i}`, '--log-level=debug']
        : i % 3 === 1
          ? [
              `mcp-server-analytics-warehouse-connector-${i}`,
              '--connection-string',
              `postgresql://readonly_reporting_user@warehouse-replica-${i}.internal.example.com:5432/analytics_production?sslmode=require`,
            ]
          : [`${LONG_PATH}/dist/server-${i}.js`],
    env: {
      [`SERVICE_${i}_API_TOKEN`]: `tok_${'x'.repeat(40)}${i}`,
      LOG_DIRECTORY: `${LONG_PATH}/logs/${i}`,
      ...(i % 2 ? { REGION: 'eu-west-1' } : {}),
    },
  };
}

/** `count` servers, some over HTTP, with long names. */
function servers(count: number, prefix: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < count; i++) {
    const name = i % 4 === 0 ? `${prefix}-observability-and-incident-management-server-${i}` : `${prefix}-${i}`;
    out[name] =
      i % 5 === 4
        ? {
            url: `http://127.0.0.1:9/v2/organizations/northwind-traders/workspaces/payments/servers/${prefix}-${i}/mcp?region=eu-west-1&tenant=${'t'.repeat(30)}`,
            headers: { Authorization: `Bearer ${'s'.repeat(48)}`, 'X-Workspace-Identifier': 'northwind-traders-payments' },
          }
        : stdio(i);
  }
  return out;
}

/**
 * Writes the five clients' user files under `home` (Linux paths), pointing two entries at `selfUrl`
 * (Working Set itself). Answers the number of servers written in all.
 */
export function writeRealisticConfigs(home: string, selfUrl: string): number {
  let total = 0;
  // Claude Desktop: 24 servers, Working Set through mcp-remote, and a duplicate of one under another name.
  const desktop = servers(22, 'desktop');
  desktop['working-set-through-mcp-remote'] = { command: 'npx', args: ['-y', 'mcp-remote', selfUrl] };
  desktop['the-same-as-desktop-1-under-a-different-name'] = desktop['desktop-1']!;
  total += Object.keys(desktop).length;
  write(
    join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({ mcpServers: desktop, globalShortcut: 'Ctrl+Space' }, null, 2),
  );

  // Claude Code: user servers, and twelve projects with long folder names, each with its own servers.
  const projects: Record<string, unknown> = {};
  for (let p = 0; p < 12; p++) {
    const local = servers(3, `proj${p}`);
    total += 3;
    projects[`${LONG_PATH}/projects/customer-facing-checkout-experience-rewrite-${p}`] = {
      allowedTools: [],
      history: [{ display: 'fix the flaky test', pastedContents: {} }],
      mcpServers: local,
      enabledMcpjsonServers: [],
      hasTrustDialogAccepted: true,
    };
  }
  const codeUser = { ...servers(6, 'code'), toolbox: { type: 'http', url: selfUrl } };
  total += Object.keys(codeUser).length;
  write(
    join(home, '.claude.json'),
    JSON.stringify({ numStartups: 311, theme: 'dark', hasCompletedOnboarding: true, mcpServers: codeUser, projects }, null, 2),
  );

  // Cursor: HTTP servers with long URLs and headers.
  const cursor = servers(10, 'cursor');
  total += 10;
  write(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: cursor }, null, 2));

  // VS Code: `servers` with `inputs`, comments and trailing commas (JSONC).
  const vsLines = Object.entries(servers(8, 'vscode')).map(([name, s], i) => {
    const v = {
      type: 'url' in s ? 'http' : 'stdio',
      ...s,
      ...(i % 2 && !('url' in s) ? { env: { ...(s.env as object), SECRET_KEY: `\${input:vscode-secret-${i}}` } } : {}),
    };
    return `    // server ${i}\n    ${JSON.stringify(name)}: ${JSON.stringify(v)},`;
  });
  total += 8;
  const inputs = Array.from({ length: 8 }, (_, i) => ({
    type: 'promptString',
    id: `vscode-secret-${i}`,
    description: `The API key of the internal service number ${i} (from the team vault)`,
    password: true,
  }));
  write(
    join(home, '.config', 'Code', 'User', 'mcp.json'),
    `{\n  // Prompted once, then kept by VS Code.\n  "inputs": ${JSON.stringify(inputs)},\n  "servers": {\n${vsLines.join('\n')}\n  },\n}\n`,
  );

  // Codex: TOML tables with env tables and a long args array.
  const toml: string[] = ['model = "o4-mini"', ''];
  for (const [name, s] of Object.entries(servers(9, 'codex'))) {
    if ('url' in s) continue;
    total++;
    toml.push(
      `[mcp_servers.${JSON.stringify(name)}]`,
      `command = ${JSON.stringify(s.command)}`,
      `args = ${JSON.stringify(s.args)}`,
      'tool_timeout_sec = 120',
      '',
      `[mcp_servers.${JSON.stringify(name)}.env]`,
    );
    for (const [k, v] of Object.entries(s.env as Record<string, string>)) toml.push(`${k} = ${JSON.stringify(v)}`);
    toml.push('');
  }
  write(join(home, '.codex', 'config.toml'), toml.join('\n'));
  return total;
}
