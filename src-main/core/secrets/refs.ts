// The forms a config value may take instead of a secret or a value the user still has to give, and
// the one step that turns them into real values, run only when an upstream is connected:
//   ${secret:NAME}  a value kept in the SecretStore under NAME (config.json holds only the reference)
//   ${input:ID}     a value a client asked its user for (VS Code `inputs`); filled with `mws upstream set`
//   ${env:NAME}     the mws process's environment variable NAME (VS Code's form)
// plus two fields: a stdio upstream's `envFile` (read at connect time) and an HTTP upstream's
// `bearerTokenEnvVar` (Codex's `bearer_token_env_var`: the process's variable, sent as a bearer token).
import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError, errorMessage } from '../errors.js';
import type { SecretStore } from './store.js';
import { isSecretName } from '../redact.js';
import { argSecretValues } from './args.js';
import { hasPlaceholder, PLACEHOLDER } from './placeholder.js';

export { hasPlaceholder, PLACEHOLDER };

export const secretRef = (name: string): string => `\${secret:${name}}`;

/** The store name of a value a client asked for (an `${input:ID}`, or an env variable the process lacks). */
export const inputName = (vendor: string, id: string): string => `upstreams.${vendor}.inputs.${id}`;
/** The store name a secret header, env value or argument credential of an upstream is moved to. */
export const fieldSecretName = (vendor: string, field: 'headers' | 'env' | 'args', key: string): string =>
  `upstreams.${vendor}.${field}.${key}`;

/**
 * Whether a secret belongs to an upstream: a reference resolves only to that upstream's own names
 * (vendor slugs hold no dot, so the prefix is exact). Otherwise a config imported from an untrusted
 * project could send another upstream's token to a URL of its choosing.
 */
export const ownsSecret = (vendor: string, name: string): boolean => name.startsWith(`upstreams.${vendor}.`);

export type ResolveParts = {
  secrets: Pick<SecretStore, 'get'>;
  /** The mws process's environment (injected in tests). */
  env: Readonly<Record<string, string | undefined>>;
  readFile?: (path: string) => Promise<string>;
};

const HEADER_CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f]/;

export type Resolved =
  | {
      ok: true;
      config: UpstreamConfig;
      /** every value that came from a reference: masked wherever an error may quote it */ secrets: string[];
    }
  | { ok: false; /** what the user must fill in, by the name `mws upstream set` takes */ needs: string[] };

/** The names a value's placeholders would need, without looking anything up (for import notes). */
export function placeholderIds(value: string): Array<{ kind: 'secret' | 'input' | 'env'; id: string }> {
  return [...value.matchAll(new RegExp(PLACEHOLDER.source, 'g'))].map((m) => ({ kind: m[1] as 'secret' | 'input' | 'env', id: m[2]! }));
}

/**
 * The upstream's config with every reference replaced by its value, or the names of the values still
 * missing. `field` is where a value sits ("env BRAVE_API_KEY"): a missing `${secret:…}` is named by it.
 */
export async function resolveUpstream(vendor: string, cfg: UpstreamConfig, p: ResolveParts): Promise<Resolved> {
  const needs = new Set<string>();
  const used: string[] = [];
  const lookup = async (kind: string, given: string, key: string | undefined): Promise<string | undefined> => {
    let id = given;
    let v: string | undefined;
    if (kind === 'secret') v = ownsSecret(vendor, id) ? await p.secrets.get(id) : undefined;
    else if (kind === 'input') {
      // `${input:ID:-default}`: what an import from a project file makes of its `${env:ID:-default}`.
      const at = id.indexOf(':-');
      const name = at < 0 ? id : id.slice(0, at);
      v = (await p.secrets.get(inputName(vendor, name))) ?? (at < 0 ? undefined : id.slice(at + 2));
      id = name;
    } else {
      // `${env:NAME:-default}` (Claude Code's form, kept by import). A variable the process lacks may be
      // given to Working Set instead (`mws upstream set VENDOR NAME`).
      const at = id.indexOf(':-');
      const name = at < 0 ? id : id.slice(0, at);
      v = p.env[name] || (await p.secrets.get(inputName(vendor, name))) || (at < 0 ? undefined : id.slice(at + 2));
      id = name;
    }
    if (v === undefined) needs.add(kind === 'secret' ? (key ?? id) : id);
    else used.push(v);
    return v;
  };
  const fill = async (value: string, key?: string): Promise<string> => {
    let out = '';
    let last = 0;
    for (const m of value.matchAll(new RegExp(PLACEHOLDER.source, 'g'))) {
      out += value.slice(last, m.index) + ((await lookup(m[1]!, m[2]!, key)) ?? '');
      last = m.index + m[0].length;
    }
    return out + value.slice(last);
  };
  const fillRecord = async (r: Record<string, string>): Promise<Record<string, string>> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) {
      out[k] = await fill(v, k);
      // A plain-text secret still in the config (not migrated yet) is masked in errors too.
      if (isSecretName(k) && !hasPlaceholder(v)) used.push(out[k]!);
    }
    return out;
  };

  let config: UpstreamConfig;
  if (cfg.kind === 'http') {
    const headers = await fillRecord(cfg.headers);
    if (cfg.bearerTokenEnvVar) {
      const token = await lookup('env', cfg.bearerTokenEnvVar, undefined);
      if (token !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization'))
        headers.Authorization = `Bearer ${token}`;
    }
    // A value from the secret store or the environment is checked here, where it becomes a header:
    // a line break would start another header, and an escape would reach whatever logs it.
    for (const [k, v] of Object.entries(headers))
      if (HEADER_CONTROLS.test(v))
        throw new MwsError(
          'upstream_needs_value',
          `The value of the header "${k}" of upstream "${vendor}" holds a control character (a line break, NUL or escape), which HTTP cannot send. Set it again without it (the window's upstream form, or \`mws upstream set ${vendor}\`).`,
          { vendor, header: k },
        );
    config = { ...cfg, url: await fill(cfg.url), headers };
  } else if (cfg.kind === 'stdio') {
    let fromFile: Record<string, string> = {};
    if (cfg.envFile) {
      let text: string;
      try {
        text = await (p.readFile ?? ((f) => readFile(f, 'utf8')))(cfg.envFile);
      } catch (err) {
        throw new MwsError(
          'upstream_unavailable',
          `Upstream "${vendor}" reads its environment from ${cfg.envFile}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)}). Create the file, or remove "envFile" from the upstream.`,
          { vendor, envFile: cfg.envFile },
        );
      }
      fromFile = parseEnv(text) as Record<string, string>;
      used.push(...Object.values(fromFile));
    }
    // The file first, the config's own env over it (VS Code's order).
    const env = { ...fromFile, ...(await fillRecord(cfg.env)) };
    const args: string[] = [];
    for (const a of cfg.args) args.push(await fill(a));
    // A credential still in plain text in the arguments (not migrated yet) is masked in errors too.
    used.push(...argSecretValues(cfg.args));
    config = { ...cfg, command: await fill(cfg.command), args, env };
  } else {
    config = cfg;
  }
  if (needs.size) return { ok: false, needs: [...needs] };
  return { ok: true, config, secrets: used.filter((v) => v.length >= 4) };
}

/** `text` with each secret value replaced by ••••: an upstream's error or stderr may quote its key. */
export function maskValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of [...values].sort((a, b) => b.length - a.length)) if (v.length >= 4) out = out.split(v).join('••••');
  return out;
}
