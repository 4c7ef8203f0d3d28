// Turns the parsed config file into a full Config: migrated to the current version, then parsed by the
// schema (configSchema.ts), which fills in the defaults; the first bad field is refused with its path,
// the reason and the bounds the schema sets for it (fieldRules.ts), so a form can say what to type.
import type { z } from 'zod';
import { MwsError } from '../errors.js';
import { RESERVED_NAME_WORDS } from '../../shared/reservedNames.js';
import type { Config } from './schema.js';
import { configSchemaWith, HIDE_INPUT, UPSTREAM_KEYS } from './configSchema.js';
import { fieldRules } from './fieldRules.js';
import { migrateConfig } from './migrate.js';
import { expandHome } from './paths.js';

export { isLoopbackHost } from './configSchema.js';

/** How much of a refused value a sentence quotes: enough for a path or a command line. */
export const GOT_MAX_CHARS = 160;

/**
 * A refused value as the sentence quotes it: whole when short; else cut where it is marked (…), a
 * path or a long string keeping its end (the file's name, the last argument), anything else its start.
 */
export function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= GOT_MAX_CHARS) return text;
  return typeof value === 'string' ? `"…${text.slice(-(GOT_MAX_CHARS - 2))}` : `${text.slice(0, GOT_MAX_CHARS - 1)}…`;
}

function fail(path: ReadonlyArray<PropertyKey>, reason: string, value?: unknown): never {
  const at = pathText(path);
  const got = value === undefined ? '' : ` (got ${quoted(value)})`;
  // The data names the field, the reason, the value and the field's bounds, so a form can read them without the sentence.
  throw new MwsError('config_invalid', `config field "${at}" ${reason}${got}.`, {
    path: at,
    reason,
    ...(value === undefined ? {} : { got: quoted(value) }),
    ...fieldRules(path),
  });
}

/** `agents[0].id` from ['agents', 0, 'id']. */
export function pathText(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');
}

type Issue = z.core.$ZodIssue;

/**
 * The issue a person should fix first, with its full path. A union (an upstream) reports the branch
 * its first distinguishing key picks; a record's bad key reports the key's own reason.
 */
function firstIssue(issue: Issue, base: ReadonlyArray<PropertyKey> = []): { path: PropertyKey[]; issue: Issue } {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union') {
    const input = (issue as { input?: unknown }).input;
    const at = typeof input === 'object' && input !== null ? UPSTREAM_KEYS.findIndex((k) => k in input) : -1;
    const branch = at >= 0 ? issue.errors[at] : undefined;
    if (branch?.[0]) return firstIssue(branch[0], path);
  }
  // The key is the path's last part already: its reason is given without repeating it.
  if (issue.code === 'invalid_key' && issue.issues[0])
    return { path, issue: { ...issue.issues[0], code: 'custom', params: HIDE_INPUT, path: [] } as Issue };
  if (issue.code === 'unrecognized_keys') return { path: [...path, issue.keys[0]!], issue };
  return { path, issue };
}

/** The config's schema on this machine: `~/` in a path is the user's home folder. */
const configSchema = configSchemaWith(expandHome);

/** The schema's verdict on the file as written (after migration), refusing the first bad field. */
/** A key JSON.parse kept as "__proto__": the schema would drop it unseen, so it is refused with its place. */
function refuseProtoKeys(raw: unknown): void {
  if (typeof raw !== 'object' || raw === null) return;
  const o = raw as Record<string, unknown>;
  const maps: Array<[string, unknown]> = [
    ['upstreams', o.upstreams],
    ['searchAliases', o.searchAliases],
  ];
  if (Object.hasOwn(o, '__proto__')) fail(['__proto__'], RESERVED_NAME_WORDS);
  for (const [field, m] of maps)
    if (typeof m === 'object' && m !== null && Object.hasOwn(m, '__proto__')) fail([field, '__proto__'], RESERVED_NAME_WORDS);
}

function checkConfig(raw: unknown): z.output<typeof configSchema> {
  refuseProtoKeys(raw);
  const r = configSchema.safeParse(raw, { reportInput: true });
  if (r.success) return r.data;
  const { path, issue } = firstIssue(r.error.issues[0]!);
  // Text too long is not echoed: it may be a secret value, and its start says nothing.
  const hide =
    issue.code === 'unrecognized_keys' ||
    (issue.code === 'too_big' && issue.origin === 'string') ||
    (issue.code === 'custom' && (issue.params as typeof HIDE_INPUT | undefined)?.hideInput);
  fail(path, issue.message, hide ? undefined : (issue as { input?: unknown }).input);
}

export function validateConfig(raw: unknown, defaultStateDir: string): Config {
  const c = checkConfig(migrateConfig(raw === undefined ? {} : raw));
  return { ...c, stateDir: expandHome(c.stateDir ?? defaultStateDir) };
}
