// The edit that moves a client onto Working Set: its imported servers taken out, one Working Set entry
// put in. JSON files are edited with jsonc-parser's `modify`, which keeps comments and layout; Codex's
// TOML by whole [mcp_servers.NAME] tables, so its comments elsewhere stay too.
import { applyEdits, modify } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { ClientId, FileFormat } from './clients.js';
import type { ClientEdit, FoundServer } from './types.js';
import { DEFAULT_CLIENT_TOOL_TIMEOUT_SEC } from './clientTimeouts.js';

export type { ClientEdit };

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** The Working Set entry in each client's own shape. */
export function entryFor(client: ClientId | null, url: string): Record<string, unknown> {
  if (client === 'claude-desktop') return { command: 'npx', args: ['-y', 'mcp-remote', url] };
  if (client === 'cursor') return { url };
  return { type: 'http', url };
}

function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

const TABLE = /^\s*\[\s*mcp_servers\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$/;

function editToml(text: string, names: Set<string>, entryName: string, url: string, toolTimeoutSec: number): string {
  const out: string[] = [];
  let skipping = false;
  for (const line of text.split('\n')) {
    if (/^\s*\[/.test(line)) {
      const m = TABLE.exec(line);
      const name = m ? (m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : (m[2] ?? m[3])) : undefined;
      skipping = name !== undefined && (names.has(name) || name === entryName);
    }
    if (!skipping) out.push(line);
  }
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  return `${out.join('\n')}\n\n[mcp_servers.${tomlKey(entryName)}]\nurl = ${JSON.stringify(url)}\ntool_timeout_sec = ${toolTimeoutSec}\n`;
}

export function clientEdit(o: { text: string; format: FileFormat; client: ClientId | null; servers: FoundServer[]; entryName: string; url: string; file: string; toolTimeoutSec?: number }): ClientEdit {
  const names = o.servers.map((s) => s.name);
  if (o.format === 'codex-toml') {
    const text = editToml(o.text, new Set(names), o.entryName, o.url, o.toolTimeoutSec ?? DEFAULT_CLIENT_TOOL_TIMEOUT_SEC);
    const left = Object.keys((parseToml(text) as { mcp_servers?: object }).mcp_servers ?? {});
    if (names.some((n) => left.includes(n))) throw new Error('the TOML edit did not take the imported servers out');
    return { text, commands: [], summary: `In ${o.file}, replace the [mcp_servers.*] tables of ${names.join(', ')} with [mcp_servers.${o.entryName}].` };
  }
  let text = o.text;
  for (const s of o.servers) text = applyEdits(text, modify(text, s.path, undefined, FORMAT));
  const container = o.servers[0]?.path.slice(0, -1) ?? [o.format === 'servers' ? 'servers' : 'mcpServers'];
  text = applyEdits(text, modify(text, [...container, o.entryName], entryFor(o.client, o.url), FORMAT));
  const commands: string[] = [];
  if (o.client === 'claude-code') {
    for (const s of o.servers) commands.push(`claude mcp remove ${JSON.stringify(s.name)} -s ${s.scope.startsWith('local') ? 'local' : s.scope === 'project' ? 'project' : 'user'}`);
    commands.push(`claude mcp add --transport http ${o.entryName} ${o.url} -s user`);
  }
  const key = container.join('.');
  return { text, commands, summary: `In ${o.file}, replace ${names.join(', ')} under "${key}" with one entry "${o.entryName}" pointing at ${o.url}.` };
}
