// Reads the MCP servers out of a client's config file: JSON, JSON with comments (jsonc-parser, the
// parser VS Code itself uses) or Codex's TOML (smol-toml). Values stay in memory: what is shown is
// the name, the command or URL and the names of env variables and headers, never their values.
import { isReservedName } from '../../shared/reservedNames.js';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { MwsError } from '../errors.js';
import type { UpstreamInput } from './types.js';
import type { FileFormat, FoundServer } from './types.js';
import { VENDOR_PATTERN } from '../../shared/vendorName.js';
import { maskArgs, SECRET_MASK } from '../secrets/args.js';

export type { FoundServer };

/** A found server with its settings, values included: stays inside the core. */
export type FoundWithValues = FoundServer & { upstream: UpstreamInput | null };

const SLUG = VENDOR_PATTERN;

export function vendorSlug(name: string): string {
  // A name every object already has (constructor, prototype) is not an id: it gets a suffix.
  if (SLUG.test(name)) return isReservedName(name) ? `${name}-server` : name;
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return isReservedName(s) ? `${s}-server` : s || 'server';
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const record = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.fromEntries(
        Object.entries(v)
          .filter(([, x]) => typeof x === 'string' || typeof x === 'number')
          .map(([k, x]) => [k, String(x)]),
      )
    : {};

/** One server entry in any client's shape (they share command/args/env or url/headers). */
function server(name: string, raw: unknown, path: string[], scope: string): FoundWithValues | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  const notes: string[] = [];
  const env = record(o.env);
  const headers = { ...record(o.headers), ...record(o.http_headers) };
  const placeholders = [...Object.values(env), ...Object.values(headers), ...strings(o.args)].filter((v) => /\$\{input:|\$\{env:/.test(v));
  if (placeholders.length)
    notes.push(
      'it uses values the client asks you for (${input:…}); it says "needs a value" until you fill them in (Upstreams screen, or `mws upstream set`)',
    );
  if (typeof o.envFile === 'string') notes.push(`it reads env from ${o.envFile} each time it starts`);
  if (typeof o.bearer_token_env_var === 'string')
    notes.push(`it takes its bearer token from $${o.bearer_token_env_var} of mws's environment (or \`mws upstream set\`)`);
  const base = { name, vendor: vendorSlug(name), path, scope, envNames: Object.keys(env), headerNames: Object.keys(headers), notes };
  if (typeof o.command === 'string' && o.command) {
    const args = strings(o.args);
    const cwd = typeof o.cwd === 'string' ? o.cwd : undefined;
    return {
      ...base,
      kind: 'stdio',
      command: o.command,
      // Shown with its credentials masked, as env and header values are never shown; imported as it is
      // (the credentials then move to the secret store).
      args: maskArgs(args, SECRET_MASK),
      url: null,
      upstream: {
        command: o.command,
        ...(args.length ? { args } : {}),
        ...(Object.keys(env).length ? { env } : {}),
        ...(cwd ? { cwd } : {}),
        ...(typeof o.envFile === 'string' && o.envFile ? { envFile: o.envFile } : {}),
      },
    };
  }
  const url = typeof o.url === 'string' ? o.url : typeof o.serverUrl === 'string' ? o.serverUrl : undefined;
  if (url) {
    if (o.type === 'sse' || o.transport === 'sse' || /\/sse\/?$/.test(url))
      notes.push('the client reaches it over the older SSE transport; Working Set speaks Streamable HTTP, so test it after importing');
    return {
      ...base,
      kind: 'http',
      command: null,
      args: [],
      url,
      upstream: {
        url,
        ...(Object.keys(headers).length ? { headers } : {}),
        ...(typeof o.bearer_token_env_var === 'string' && o.bearer_token_env_var ? { bearerTokenEnvVar: o.bearer_token_env_var } : {}),
      },
    };
  }
  return {
    ...base,
    kind: 'stdio',
    command: null,
    args: [],
    url: null,
    upstream: null,
    notes: [...notes, 'it has neither a command nor a URL, so it cannot be imported'],
  };
}

function serversIn(obj: unknown, path: string[], scope: string): FoundWithValues[] {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return [];
  return Object.entries(obj).flatMap(([name, raw]) => server(name, raw, [...path, name], scope) ?? []);
}

export function parseJsonText(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (err) {
    if (err instanceof RangeError) throw unreadable(file, 'JSON', 'it nests too deeply to read, more levels than any config needs');
    throw err;
  }
  if (errors.length) {
    const e = errors[0]!;
    const before = text.slice(0, e.offset);
    throw unreadable(
      file,
      'JSON',
      `${printParseErrorCode(e.error)} on line ${before.split('\n').length}, column ${e.offset - before.lastIndexOf('\n')}`,
    );
  }
  return value;
}

/** The sentence for a client file that cannot be read as its format. */
export function unreadable(file: string, what: 'JSON' | 'TOML', problem: string): MwsError {
  return new MwsError('usage', `${file} is not valid ${what} (${problem}); fix it or name another file.`, { file });
}

export function parseTomlText(text: string, file: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    // smol-toml recurses into nested arrays and inline tables too.
    const problem = err instanceof RangeError ? 'it nests too deeply to read' : (err as Error).message.split('\n')[0]!;
    throw unreadable(file, 'TOML', problem);
  }
}

/**
 * Where a file's top-level servers live for their client: a project's `.mcp.json` holds Claude Code's
 * project scope (`claude mcp remove -s project`), the user's own files the user scope.
 */
export function topScope(fileScope: string, file: string): string {
  return fileScope === 'project' || /(^|[\\/])\.mcp\.json$/.test(file) ? 'project' : 'user';
}

/**
 * Upstream names made from different client names that came out the same (long names cut at 32
 * characters, or names that differ in case or punctuation) get a number, so each server is offered as
 * its own: the same name twice is the user's conflict to resolve ("import as"), a cut name is ours. A
 * name that is a valid upstream name as it is keeps it; the cut ones give way, in file order.
 */
export function distinctVendors(found: FoundWithValues[]): FoundWithValues[] {
  const used = new Set(found.filter((s) => s.vendor === s.name).map((s) => s.vendor));
  const cutFrom = new Map<string, string>(); // a made name → the client name it was made from
  return found.map((s) => {
    if (s.vendor === s.name) return s;
    // The same client name again (another project's "My Server") stays a conflict to resolve.
    if (cutFrom.get(s.vendor) === s.name) return s;
    if (!used.has(s.vendor)) {
      used.add(s.vendor);
      cutFrom.set(s.vendor, s.name);
      return s;
    }
    for (let i = 2; ; i++) {
      const v = `${s.vendor.slice(0, 32 - String(i).length - 1).replace(/-+$/, '')}-${i}`;
      if (!used.has(v)) {
        used.add(v);
        return { ...s, vendor: v };
      }
    }
  });
}

/** The servers a parsed document holds, in the shape its format gives them. */
export function serversOf(doc: unknown, format: FileFormat, file: string, fileScope = 'user'): FoundWithValues[] {
  return distinctVendors(serversOfRaw(doc, format, file, fileScope));
}

function serversOfRaw(doc: unknown, format: FileFormat, file: string, fileScope: string): FoundWithValues[] {
  if (!doc || typeof doc !== 'object') return [];
  const d = doc as Record<string, unknown>;
  if (format === 'codex-toml') return serversIn(d.mcp_servers, ['mcp_servers'], 'user');
  if (format === 'servers') return serversIn(d.servers, ['servers'], 'project');
  const found = serversIn(d.mcpServers, ['mcpServers'], format === 'claude-code-user' ? 'user' : topScope(fileScope, file));
  if (format === 'claude-code-user' && typeof d.projects === 'object' && d.projects !== null) {
    for (const [dir, p] of Object.entries(d.projects as Record<string, unknown>)) {
      found.push(...serversIn((p as { mcpServers?: unknown } | null)?.mcpServers, ['projects', dir, 'mcpServers'], `local: ${dir}`));
    }
  }
  return found;
}

/** The servers a file's text holds (parsed on this thread: small files and tests). */
export function readServers(text: string, format: FileFormat, file: string, fileScope = 'user'): FoundWithValues[] {
  return serversOf(format === 'codex-toml' ? parseTomlText(text, file) : parseJsonText(text, file), format, file, fileScope);
}
