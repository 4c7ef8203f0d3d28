// `mws upstream add|edit`'s flags as the upstream the ControlApi saves: pure, so the rules (one of a URL
// or a command, K=V pairs, what an edit keeps) are tested without a process.
import type { UpstreamInput } from '../../core/control/api.js';
import { MwsError } from '../../core/errors.js';

export type UpstreamFlags = {
  url: string | undefined;
  /** The words after `--`: the command and its arguments. */
  command: string[];
  headers: string[];
  env: string[];
};

/** `K=V` (or `K: V` for a header, as curl takes it) into a record; an empty value (`K=`) means "remove K" in an edit. */
export function pairs(items: string[], flag: '--header' | '--env'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const m = flag === '--header' ? /^([^=:\s]+)\s*[=:]\s?(.*)$/s.exec(item) : /^([^=]+)=(.*)$/s.exec(item);
    if (!m)
      throw new MwsError(
        'usage',
        `${flag} takes NAME=VALUE (got "${item}"), e.g. ${flag === '--header' ? '--header "Authorization=Bearer …"' : '--env GITHUB_TOKEN=…'}.`,
      );
    out[m[1]!] = m[2]!;
  }
  return out;
}

const withoutEmpty = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ''));

/** A new upstream from the flags: a URL (with headers) or a command (with env), never both. */
export function newUpstream(f: UpstreamFlags): UpstreamInput {
  if (f.url !== undefined && f.command.length)
    throw new MwsError('usage', 'Give the upstream a URL (--url) or a command (after --), not both.');
  if (f.url !== undefined) {
    if (f.env.length) throw new MwsError('usage', '--env is for a command the upstream runs; an HTTP upstream takes --header.');
    const headers = withoutEmpty(pairs(f.headers, '--header'));
    return { url: f.url, ...(Object.keys(headers).length ? { headers } : {}) };
  }
  if (f.command.length) {
    if (f.headers.length) throw new MwsError('usage', '--header is for an HTTP upstream; a command takes --env.');
    const [command, ...args] = f.command;
    const env = withoutEmpty(pairs(f.env, '--env'));
    return { command: command!, ...(args.length ? { args } : {}), ...(Object.keys(env).length ? { env } : {}) };
  }
  throw new MwsError(
    'usage',
    'Say what the upstream is: `mws upstream add NAME --url https://…/mcp` for an HTTP server, or `mws upstream add NAME -- npx -y some-server` for one that runs as a command.',
  );
}

const merged = (old: Record<string, string> | undefined, change: Record<string, string>) => {
  const out = { ...(old ?? {}) };
  for (const [k, v] of Object.entries(change)) {
    if (v === '') delete out[k];
    else out[k] = v;
  }
  return out;
};

/**
 * An edit: what the flags name changes, the rest stays as saved (masked values stand for the saved
 * secrets, so they survive). A URL or a command replaces the other kind.
 */
export function editedUpstream(saved: UpstreamInput | { builtin: string }, f: UpstreamFlags): UpstreamInput {
  if ('builtin' in saved) throw new MwsError('usage', 'The built-in demo upstream has nothing to edit.');
  if (f.url !== undefined && f.command.length)
    throw new MwsError('usage', 'Give the upstream a URL (--url) or a command (after --), not both.');
  if (!f.url && !f.command.length && !f.headers.length && !f.env.length)
    throw new MwsError('usage', 'Say what to change: --url URL, -- COMMAND ARGS…, --header K=V or --env K=V (K= removes K).');
  const toUrl = f.url !== undefined || ('url' in saved && !f.command.length);
  if (toUrl) {
    if (f.env.length) throw new MwsError('usage', '--env is for a command the upstream runs; an HTTP upstream takes --header.');
    const old = 'url' in saved ? saved : undefined;
    const headers = merged(old?.headers, pairs(f.headers, '--header'));
    return {
      url: f.url ?? old!.url,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(old?.bearerTokenEnvVar ? { bearerTokenEnvVar: old.bearerTokenEnvVar } : {}),
    };
  }
  if (f.headers.length) throw new MwsError('usage', '--header is for an HTTP upstream; a command takes --env.');
  const old = 'command' in saved ? saved : undefined;
  const [command, ...args] = f.command.length ? f.command : [old!.command, ...(old!.args ?? [])];
  const env = merged(old?.env, pairs(f.env, '--env'));
  return {
    command: command!,
    ...(args.length ? { args } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...(old?.cwd ? { cwd: old.cwd } : {}),
    ...(old?.envFile ? { envFile: old.envFile } : {}),
  };
}
