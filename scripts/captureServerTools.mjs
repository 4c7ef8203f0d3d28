// Captures the `tools/list` of real MCP servers for the second and third search evaluation sets
// (test/fixtures/servers-catalog.json, test/fixtures/third-catalog.json). The servers are installed
// outside the repo, e.g.
//   mkdir /tmp/servers && cd /tmp/servers && npm install --ignore-scripts <packages below>
//   node scripts/captureServerTools.mjs /tmp/servers > test/fixtures/servers-catalog.json
//   node scripts/captureServerTools.mjs /tmp/servers3 third > test/fixtures/third-catalog.json
// Each server runs over stdio with placeholder credentials (they are only listed, never called).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const dir = process.argv[2] ?? '/tmp/servers';
const bin = (pkg, file) => join(dir, 'node_modules', pkg, file);
const scratch = mkdtempSync(join(tmpdir(), 'capture-'));
const env = {
  GITHUB_PERSONAL_ACCESS_TOKEN: 'x',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'x',
  SLACK_BOT_TOKEN: 'x',
  SLACK_TEAM_ID: 'x',
  GOOGLE_MAPS_API_KEY: 'x',
  NOTION_TOKEN: 'x',
  BRAVE_API_KEY: 'x',
  CIRCLECI_TOKEN: 'x',
  SUPABASE_ACCESS_TOKEN: 'x',
  AIRTABLE_API_KEY: 'patx.x',
  FIRECRAWL_API_KEY: 'fc-x',
  TODOIST_API_KEY: 'x',
  ATLASSIAN_SITE_NAME: 'x',
  ATLASSIAN_USER_EMAIL: 'x@example.com',
  ATLASSIAN_API_TOKEN: 'x',
  API_KEY: 'x',
};
const SECOND = [
  ['everything', '@modelcontextprotocol/server-everything', 'dist/index.js', ['stdio']],
  ['filesystem', '@modelcontextprotocol/server-filesystem', 'dist/index.js', [scratch]],
  ['memory', '@modelcontextprotocol/server-memory', 'dist/index.js', []],
  ['thinking', '@modelcontextprotocol/server-sequential-thinking', 'dist/index.js', []],
  ['github', '@modelcontextprotocol/server-github', 'dist/index.js', []],
  ['gitlab', '@modelcontextprotocol/server-gitlab', 'dist/index.js', []],
  ['slack', '@modelcontextprotocol/server-slack', 'dist/index.js', []],
  ['maps', '@modelcontextprotocol/server-google-maps', 'dist/index.js', []],
  ['playwright', '@playwright/mcp', 'cli.js', []],
  ['notion', '@notionhq/notion-mcp-server', 'bin/cli.mjs', []],
  ['commander', '@wonderwhy-er/desktop-commander', 'dist/index.js', []],
  ['kubernetes', 'mcp-server-kubernetes', 'dist/index.js', []],
  ['git', '@cyanheads/git-mcp-server', 'dist/index.js', []],
];
// The third set: servers used by neither of the first two sets, captured before any tuning.
const THIRD = [
  ['chart', '@antv/mcp-server-chart', 'build/index.js', []],
  ['circleci', '@circleci/mcp-server-circleci', 'dist/index.js', []],
  ['brave', '@brave/brave-search-mcp-server', 'dist/index.js', []],
  ['airtable', 'airtable-mcp-server', 'dist/main.js', []],
  ['firecrawl', 'firecrawl-mcp', 'dist/index.js', []],
  ['todoist', 'todoist-mcp', 'dist/index.js', []],
  ['jira', '@aashari/mcp-server-atlassian-jira', 'dist/index.js', []],
  ['postgres', '@modelcontextprotocol/server-postgres', 'dist/index.js', ['postgresql://127.0.0.1:1/x']],
  ['devtools', 'chrome-devtools-mcp', 'build/src/bin/chrome-devtools-mcp.js', []],
  ['docker', '@0xshariq/docker-mcp-server', 'dist/index.js', []],
];
export const SERVERS = process.argv[3] === 'third' ? THIRD : SECOND;

function listTools(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'], cwd: scratch });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no tools/list answer within 30 s from ${args[0]}`));
    }, 30_000);
    let buf = '';
    const tools = [];
    const send = (m) => child.stdin.write(JSON.stringify(m) + '\n');
    child.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        const m = JSON.parse(line);
        if (m.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
        } else if (typeof m.id === 'number' && m.id >= 2) {
          if (m.error) return reject(new Error(`${args[0]}: ${m.error.message}`));
          tools.push(...m.result.tools);
          if (m.result.nextCursor) send({ jsonrpc: '2.0', id: m.id + 1, method: 'tools/list', params: { cursor: m.result.nextCursor } });
          else {
            clearTimeout(timer);
            child.kill();
            resolve(tools);
          }
        }
      }
    });
    child.on('error', reject);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'capture', version: '1' } },
    });
  });
}

const out = { servers: {}, tools: [] };
for (const [name, pkg, file, args] of SERVERS) {
  try {
    const tools = await listTools([bin(pkg, file), ...args]);
    const { version } = await import(join(dir, 'node_modules', pkg, 'package.json'), { with: { type: 'json' } }).then((m) => m.default);
    out.servers[name] = { package: `${pkg}@${version}`, tools: tools.length };
    // Vendor-prefixed names, as Working Set shows them when several upstreams are merged.
    for (const t of tools) out.tools.push({ ...t, name: `${name}__${t.name}` });
    console.error(`${name}: ${tools.length} tools`);
  } catch (err) {
    console.error(`${name}: skipped (${err.message})`);
  }
}
console.log(JSON.stringify(out, null, 1));
