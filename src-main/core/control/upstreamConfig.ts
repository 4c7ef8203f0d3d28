// An upstream's config as the settings form and the CLI see and send it: credentials masked in what
// is shown (args, headers, env), the masks in an edit put back from the saved values, and an edit
// refused when it would carry a saved secret to another server than the one it was saved for.
import { MwsError } from '../errors.js';
import type { Config, UpstreamConfig } from '../config/schema.js';
import type { Raw } from '../config/editor.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import { maskUrl, maskUrlsIn } from '../redact.js';
import { maskArgs, SECRET_MASK } from '../secrets/args.js';
import type { UpstreamInput, UpstreamRow } from './api.js';
import { ownsSecret, placeholderIds } from '../secrets/refs.js';

/**
 * A stdio upstream's args as shown: a credential in them (a URL's password, the value of `--api-key=KEY`
 * or `--api-key KEY`, `API_KEY=KEY`) is masked, as header and env values are (secrets/args.ts).
 */
export function maskedArgs(args: readonly string[]): string[] {
  return maskArgs(args, MASK);
}

/** Args sent back from the form: one still shown masked is the saved argument it was shown for. */
function unmaskArgs(next: string[], prev: unknown): string[] {
  const old = Array.isArray(prev) ? prev.filter((x): x is string => typeof x === 'string') : [];
  const shown = maskedArgs(old);
  return next.map((a, i) => {
    if (!a.includes(MASK)) return a;
    // The same place first, then after the same flag (an argument was added before it), then anywhere.
    const places = shown.flatMap((s, j) => (s === a ? [j] : []));
    const at = places.includes(i) ? i : (places.find((j) => j > 0 && old[j - 1] === next[i - 1]) ?? places[0]);
    return at === undefined ? a : old[at]!;
  });
}

/** Header values are secrets (tokens): the window shows that they are set, not what they are. */
function masked(u: UpstreamConfig): UpstreamRow['config'] {
  if (u.kind === 'http')
    return {
      url: maskUrl(u.url),
      headers: Object.fromEntries(Object.keys(u.headers).map((k) => [k, MASK])),
      ...(u.bearerTokenEnvVar ? { bearerTokenEnvVar: u.bearerTokenEnvVar } : {}),
    };
  if (u.kind === 'stdio')
    return {
      command: u.command,
      args: maskedArgs(u.args),
      env: Object.fromEntries(Object.keys(u.env).map((k) => [k, MASK])),
      ...(u.cwd ? { cwd: u.cwd } : {}),
      ...(u.envFile ? { envFile: u.envFile } : {}),
    };
  return { builtin: u.name };
}

/** The value the window shows for a saved secret; sent back unchanged, it means "keep the saved one". */
export const MASK = SECRET_MASK;

/**
 * The upstream's JSON for the file, merged with what is saved under that name. A masked value sent back
 * keeps the saved secret; a field left out keeps the saved one (env and cwd of a stdio upstream, the
 * headers of an HTTP one), so an edit never deletes what the form did not show. An empty object or
 * string clears it.
 */
export function upstreamJson(input: UpstreamInput, previous: unknown): Raw {
  const prev = (typeof previous === 'object' && previous !== null ? previous : {}) as {
    url?: unknown;
    command?: unknown;
    headers?: unknown;
    env?: unknown;
    cwd?: unknown;
    args?: unknown;
    envFile?: unknown;
    bearerTokenEnvVar?: unknown;
  };
  // An edit keeps the upstream turned off if it was (mws upstream enable turns it on).
  const off = (prev as { enabled?: unknown }).enabled === false ? { enabled: false } : {};
  const keep = (next: Record<string, string>, old: unknown) =>
    Object.fromEntries(
      Object.entries(next).map(([k, v]) => [k, v === MASK ? String((old as Record<string, string> | undefined)?.[k] ?? '') : v]),
    );
  if ('url' in input) {
    const sameKind = typeof prev.url === 'string';
    const headers = input.headers ? keep(input.headers, prev.headers) : sameKind ? prev.headers : undefined;
    // The window shows the URL masked; sent back unchanged, it keeps the saved one.
    const url = typeof prev.url === 'string' && input.url === maskUrl(prev.url) ? prev.url : input.url;
    // Fields the form may not show (an imported bearer-token variable) are kept unless given.
    const bearer = 'bearerTokenEnvVar' in input ? input.bearerTokenEnvVar : sameKind ? prev.bearerTokenEnvVar : undefined;
    // OAuth settings and the transport choice are not in the form: an edit keeps them.
    const kept = sameKind ? Object.fromEntries(Object.entries(prev).filter(([k]) => k === 'oauth' || k === 'transport')) : {};
    return {
      url,
      ...(headers && Object.keys(headers).length ? { headers } : {}),
      ...(typeof bearer === 'string' && bearer ? { bearerTokenEnvVar: bearer } : {}),
      ...kept,
      ...off,
    };
  }
  if ('command' in input) {
    const sameKind = typeof prev.command === 'string';
    const env = input.env ? keep(input.env, prev.env) : sameKind ? prev.env : undefined;
    const cwd = input.cwd !== undefined ? input.cwd : sameKind ? prev.cwd : undefined;
    return {
      command: input.command,
      ...(input.args?.length ? { args: unmaskArgs(input.args, prev.args) } : {}),
      ...(env && Object.keys(env).length ? { env } : {}),
      ...(typeof cwd === 'string' && cwd ? { cwd } : {}),
      ...(() => {
        const envFile = 'envFile' in input ? input.envFile : sameKind ? prev.envFile : undefined;
        return typeof envFile === 'string' && envFile ? { envFile } : {};
      })(),
      ...off,
    };
  }
  throw new MwsError('usage', 'An upstream needs "url" (HTTP) or "command" (stdio).');
}

/** Where an upstream's secrets go: an HTTP server's origin, or a stdio server's command. */
function secretTarget(u: unknown): { kind: 'url' | 'command'; at: string } | undefined {
  const o = (typeof u === 'object' && u !== null ? u : {}) as Raw;
  if (typeof o.url === 'string') {
    try {
      return { kind: 'url', at: new URL(o.url).origin };
    } catch {
      // A URL with a reference in its host has no origin before it is resolved: the whole text is compared.
      return { kind: 'url', at: o.url };
    }
  }
  if (typeof o.command === 'string') return { kind: 'command', at: o.command };
  return undefined;
}

/**
 * Refuses an upstream that would carry a saved secret of `vendor` to another server than the one it was
 * saved for: a masked value sent back (which means "the saved one"), a field left out (kept from the
 * saved one), or a reference to the vendor's own secrets or inputs, when the URL's origin (or the stdio
 * command) is not the saved one's. Whoever can call the control API could otherwise have the saved
 * token sent to a server of their choosing by naming the saved upstream and a new URL.
 */
export function refuseMovedSecrets(vendor: string | undefined, input: UpstreamInput, previous: unknown, json: Raw): void {
  const before = secretTarget(previous);
  const after = secretTarget(json);
  if (vendor === undefined || before === undefined || (after?.kind === before.kind && after.at === before.at)) return;
  const fromStore = (v: unknown) =>
    typeof v === 'string' && placeholderIds(v).some((r) => r.kind === 'input' || (r.kind === 'secret' && ownsSecret(vendor, r.id)));
  const carried: string[] = [];
  const field = 'url' in input ? 'headers' : 'env';
  const given = 'url' in input ? input.headers : 'command' in input ? input.env : undefined;
  for (const [k, v] of Object.entries((json[field] ?? {}) as Record<string, unknown>))
    if (given === undefined || given[k] === MASK || fromStore(v)) carried.push(`${field === 'headers' ? 'header' : 'variable'} ${k}`);
  const args = Array.isArray(json.args) ? (json.args as unknown[]) : [];
  const sent = 'command' in input ? (input.args ?? []) : [];
  args.forEach((a, i) => {
    if (sent[i]?.includes(MASK) || fromStore(a)) carried.push(`argument ${i + 1}`);
  });
  if (fromStore(json.url)) carried.push('the URL');
  if (!carried.length) return;
  const where = (t: { kind: 'url' | 'command'; at: string } | undefined) =>
    t === undefined ? 'nothing' : t.kind === 'url' ? maskUrl(t.at) : `the command ${JSON.stringify(t.at.slice(0, 200))}`;
  throw new MwsError(
    'usage',
    `Upstream "${vendor}" keeps secrets saved for ${where(before)}, and this one goes to ${where(after)}: a saved secret only ever goes to the server it was saved for, so ${carried.join(', ')} would not be sent. Type ${carried.length === 1 ? 'that value' : 'those values'} again for the new server (or remove ${carried.length === 1 ? 'it' : 'them'}), then test or save again.`,
    { vendor, path: 'url' in input ? 'url' : 'command', carried },
  );
}

/** Every upstream as the window shows it: status, masked settings, and whether it is turned on. */
export function upstreamRows(p: { config: Config; catalog: ToolboxCatalog }): UpstreamRow[] {
  // A removal changes the config first; the catalog lets the upstream go once its connection closed.
  return p.catalog.statuses().flatMap((s) => {
    const config = p.config.upstreams[s.vendor];
    if (!config) return [];
    return [{ ...s, lastError: s.lastError && maskUrlsIn(s.lastError), config: masked(config), enabled: config.enabled !== false }];
  });
}
