// The edit that moves a client onto Working Set: its imported servers taken out, one Working Set entry
// put in. JSON files are edited with jsonc-parser's `modify`, which keeps comments and layout (in a
// worker for big files: jsonWorker.ts); Codex's TOML by whole [mcp_servers.NAME] tables, so its
// comments elsewhere stay too — and the result is parsed again and compared with what it must mean,
// so a table header inside a multi-line string or an inline `mcp_servers = {…}` is never mangled.
import { applyEdits, modify } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { isDeepStrictEqual } from 'node:util';
import { dirname } from 'node:path';
import type { ClientId, FileFormat } from './clients.js';
import type { ClientEdit, FoundServer } from './types.js';
import type { JsonEdit } from './jsonWorker.js';
import { printable, shellLine } from '../printable.js';
import { DEFAULT_CLIENT_TOOL_TIMEOUT_SEC } from './clientTimeouts.js';

export type { ClientEdit };

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** The Working Set entry in each client's own shape; `headers`: what an agent with a token needs sent. */
export function entryFor(client: ClientId | null, url: string, headers?: Record<string, string>): Record<string, unknown> {
  const h = headers && Object.keys(headers).length ? headers : undefined;
  // mcp-remote takes headers as `--header Name:value` (no space after the colon: Windows shells split there).
  if (client === 'claude-desktop')
    return { command: 'npx', args: ['-y', 'mcp-remote', url, ...Object.entries(h ?? {}).flatMap(([k, v]) => ['--header', `${k}:${v}`])] };
  if (client === 'cursor') return { url, ...(h ? { headers: h } : {}) };
  return { type: 'http', url, ...(h ? { headers: h } : {}) };
}

/** Codex's inline table of headers (`http_headers = { "K" = "V" }`), or nothing. */
function tomlHeaders(headers: Record<string, string> | undefined): string {
  if (!headers || !Object.keys(headers).length) return '';
  return `http_headers = { ${Object.entries(headers)
    .map(([k, v]) => `${JSON.stringify(k)} = ${JSON.stringify(v)}`)
    .join(', ')} }\n`;
}

export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

const TABLE = /^\s*\[\s*mcp_servers\s*\.\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$/;

/** Whether a line ends inside a multi-line string, given whether it started inside one. */
function insideMultiline(line: string, inside: '"""' | "'''" | null): '"""' | "'''" | null {
  let state = inside;
  let rest = line;
  for (;;) {
    if (state) {
      const end = rest.indexOf(state);
      if (end < 0) return state;
      rest = rest.slice(end + 3);
      state = null;
    } else {
      const m = /"""|'''|#/.exec(rest);
      if (!m || m[0] === '#') return null;
      state = m[0] as '"""' | "'''";
      rest = rest.slice(m.index + 3);
    }
  }
}

function editToml(
  text: string,
  names: Set<string>,
  entryName: string,
  url: string,
  toolTimeoutSec: number,
  headers?: Record<string, string>,
): string {
  const out: string[] = [];
  let skipping = false;
  let inString: '"""' | "'''" | null = null;
  for (const line of text.split('\n')) {
    if (!inString && /^\s*\[/.test(line)) {
      const m = TABLE.exec(line);
      const name = m ? (m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : (m[2] ?? m[3])) : undefined;
      skipping = name !== undefined && (names.has(name) || name === entryName);
    }
    inString = insideMultiline(line, inString);
    if (!skipping) out.push(line);
  }
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  const head = out.length ? `${out.join('\n')}\n\n` : '';
  return `${head}[mcp_servers.${tomlKey(entryName)}]\nurl = ${JSON.stringify(url)}\n${tomlHeaders(headers)}tool_timeout_sec = ${toolTimeoutSec}\n`;
}

/** The TOML edit when it means exactly the file minus those servers plus our entry, else undefined. */
function checkedToml(
  text: string,
  names: string[],
  entryName: string,
  url: string,
  toolTimeoutSec: number,
  headers?: Record<string, string>,
): string | undefined {
  let before: Record<string, unknown>;
  let after: Record<string, unknown>;
  let edited: string;
  try {
    before = parseToml(text) as Record<string, unknown>;
    edited = editToml(text, new Set(names), entryName, url, toolTimeoutSec, headers);
    after = parseToml(edited) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const servers = { ...((before.mcp_servers as Record<string, unknown> | undefined) ?? {}) };
  for (const n of names) delete servers[n];
  servers[entryName] = {
    url,
    ...(headers && Object.keys(headers).length ? { http_headers: headers } : {}),
    tool_timeout_sec: toolTimeoutSec,
  };
  const expected = { ...before, mcp_servers: servers };
  return isDeepStrictEqual(JSON.parse(JSON.stringify(expected)), JSON.parse(JSON.stringify(after))) ? edited : undefined;
}

const scopeFlag = (scope: string) => (scope.startsWith('local') ? 'local' : scope === 'project' ? 'project' : 'user');

/** The folder a scoped `claude mcp` command must run in: the project's (local scope names it). */
function folderOf(s: FoundServer, file: string): string | undefined {
  if (s.scope.startsWith('local: ')) return s.scope.slice('local: '.length);
  if (s.scope === 'project') return dirname(file);
  return undefined;
}

/** `claude mcp remove` for each server, in the folder its scope belongs to, quoted for the shell. */
function claudeCommands(servers: FoundServer[], file: string, entryName: string, url: string): { commands: string[]; byHand: string[] } {
  const commands: string[] = [];
  const byHand: string[] = [];
  for (const s of servers) {
    const dir = folderOf(s, file);
    const remove = shellLine(['claude', 'mcp', 'remove', s.name, '-s', scopeFlag(s.scope)]);
    const cd = dir === undefined ? '' : shellLine(['cd', dir]);
    if (remove === undefined || cd === undefined) byHand.push(s.name);
    else commands.push(cd ? `(${cd} && ${remove})` : remove);
  }
  const add = shellLine(['claude', 'mcp', 'add', '--transport', 'http', entryName, url, '-s', 'user']);
  if (add !== undefined) commands.push(add);
  return { commands, byHand };
}

export type EditPlan = ClientEdit & {
  /** For JSON files: the edits to apply to the file's text (applied here, or in the worker for big files). */
  jsonEdits: JsonEdit[];
};

/**
 * What to change in the client. `text` is the edited file when it was given and could be edited here;
 * for JSON it may be left for the caller to make from `jsonEdits`.
 */
export function planClientEdit(o: {
  text?: string;
  format: FileFormat;
  client: ClientId | null;
  servers: FoundServer[];
  remove?: FoundServer[];
  entryName: string;
  url: string;
  file: string;
  toolTimeoutSec?: number;
  /** Headers our entry sends (an agent's bearer token). */
  headers?: Record<string, string>;
}): EditPlan {
  const names = o.servers.map((s) => s.name);
  const gone = [...o.servers, ...(o.remove ?? [])];
  const shown = names.map(printable).join(', ');
  if (o.format === 'codex-toml') {
    const text =
      o.text === undefined
        ? undefined
        : checkedToml(
            o.text,
            gone.map((s) => s.name),
            o.entryName,
            o.url,
            o.toolTimeoutSec ?? DEFAULT_CLIENT_TOOL_TIMEOUT_SEC,
            o.headers,
          );
    if (text === undefined) {
      return {
        text: o.text ?? '',
        commands: [],
        jsonEdits: [],
        editable: false,
        summary: `${o.file} cannot be edited line by line without changing what it means (its servers are in an inline table, or a string holds a table header), so it was left as it is: in it, remove the servers ${shown} and add [mcp_servers.${tomlKey(o.entryName)}] with url = ${JSON.stringify(o.url)}.`,
      };
    }
    return {
      text,
      commands: [],
      jsonEdits: [],
      editable: true,
      summary: `In ${o.file}, replace the [mcp_servers.*] tables of ${shown} with [mcp_servers.${tomlKey(o.entryName)}].`,
    };
  }
  const container = o.servers[0]?.path.slice(0, -1) ?? [o.format === 'servers' ? 'servers' : 'mcpServers'];
  const jsonEdits: JsonEdit[] = [
    ...gone.map((s) => ({ path: s.path, value: undefined })),
    { path: [...container, o.entryName], value: entryFor(o.client, o.url, o.headers) },
  ];
  let text = o.text ?? '';
  if (o.text !== undefined) text = applyJsonEdits(o.text, jsonEdits);
  const { commands, byHand } =
    o.client === 'claude-code' ? claudeCommands(o.servers, o.file, o.entryName, o.url) : { commands: [], byHand: [] };
  const hand = byHand.length
    ? ` Remove ${byHand.map((n) => `"${printable(n)}"`).join(', ')} by hand in ${o.file}: a name holding control characters gets no command to paste.`
    : '';
  return {
    text,
    commands,
    jsonEdits,
    editable: true,
    summary: `In ${o.file}, replace ${shown} under "${printable(container.join('.'))}" with one entry "${o.entryName}" pointing at ${o.url}.${hand}`,
  };
}

export function applyJsonEdits(text: string, edits: JsonEdit[]): string {
  let t = text;
  for (const e of edits) t = applyEdits(t, modify(t, e.path, e.value, FORMAT));
  return t;
}

/** The edit with the file's text given (small files, tests). */
export function clientEdit(o: Parameters<typeof planClientEdit>[0] & { text: string }): ClientEdit {
  const { jsonEdits: _e, ...edit } = planClientEdit(o);
  return edit;
}
