// Turns the parsed config file into a full Config: migrated to the current version, checked against the
// schema (configSchema.ts), the first bad field refused with its path, then defaults filled in.
import type { z } from 'zod';
import { MwsError } from '../errors.js';
import type { AgentConfig, Config, UpstreamConfig } from './schema.js';
import { DEFAULT_AGENT_ID, SINGLE_UPSTREAM_KEY } from './schema.js';
import { defaultAgent, defaultConfig } from './defaults.js';
import { configFileSchema, HIDE_INPUT, UPSTREAM_KEYS, type ConfigFile } from './configSchema.js';
import { migrateConfig } from './migrate.js';
import { expandHome } from './paths.js';

export { isLoopbackHost } from './configSchema.js';

function fail(path: string, reason: string, value?: unknown): never {
  const got = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 80)})`;
  // The data names the field, the reason and the value, so a form can read them without the sentence.
  throw new MwsError('config_invalid', `config field "${path}" ${reason}${got}.`, { path, reason, ...(value === undefined ? {} : { got: JSON.stringify(value)?.slice(0, 80) }) });
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
  if (issue.code === 'invalid_key' && issue.issues[0]) return { path, issue: { ...issue.issues[0], code: 'custom', params: HIDE_INPUT, path: [] } as Issue };
  if (issue.code === 'unrecognized_keys') return { path: [...path, issue.keys[0]!], issue };
  return { path, issue };
}

/** The schema's verdict on the file as written (after migration), refusing the first bad field. */
export function checkConfigFile(raw: unknown): ConfigFile {
  const r = configFileSchema.safeParse(raw, { reportInput: true });
  if (r.success) return r.data;
  const { path, issue } = firstIssue(r.error.issues[0]!);
  const hide = issue.code === 'unrecognized_keys' || (issue.code === 'custom' && (issue.params as typeof HIDE_INPUT | undefined)?.hideInput);
  fail(pathText(path), issue.message, hide ? undefined : (issue as { input?: unknown }).input);
}

function upstream(u: NonNullable<ConfigFile['upstream']>): UpstreamConfig {
  const off = u.enabled === false ? { enabled: false as const } : {};
  if ('url' in u) return { kind: 'http', url: u.url, headers: u.headers ?? {}, ...(u.bearerTokenEnvVar ? { bearerTokenEnvVar: u.bearerTokenEnvVar } : {}), ...(u.transport ? { transport: u.transport } : {}), ...(u.oauth !== undefined ? { oauth: u.oauth } : {}), ...off };
  if ('command' in u) return { kind: 'stdio', command: u.command, args: u.args ?? [], env: u.env ?? {}, cwd: u.cwd === undefined ? undefined : expandHome(u.cwd), ...(u.envFile ? { envFile: expandHome(u.envFile) } : {}), ...off };
  return { kind: 'builtin', name: u.builtin, ...off };
}

function agent(a: NonNullable<ConfigFile['agents']>[number]): AgentConfig {
  const base = defaultAgent(a.id);
  return {
    id: a.id,
    name: a.name ?? base.name,
    cap: a.cap ?? base.cap,
    idleWindowDays: a.idleWindowDays ?? base.idleWindowDays,
    approvals: a.approvals ?? base.approvals,
    pins: a.pins ?? [],
    token: a.token,
  };
}

export function validateConfig(raw: unknown, defaultStateDir: string): Config {
  const c = defaultConfig(defaultStateDir);
  if (raw === undefined) return c;
  const o = checkConfigFile(migrateConfig(raw));

  if (o.upstream && o.upstreams) fail('upstream', 'cannot be used together with "upstreams"; keep one of them');
  if (o.upstream) {
    c.upstreams = { [SINGLE_UPSTREAM_KEY]: upstream(o.upstream) };
    c.prefixNames = false;
  }
  if (o.upstreams) c.upstreams = Object.fromEntries(Object.entries(o.upstreams).map(([vendor, u]) => [vendor, upstream(u)]));
  if (o.listen) c.listen = { host: o.listen.host ?? c.listen.host, port: o.listen.port ?? c.listen.port };
  c.stateDir = expandHome(o.stateDir ?? c.stateDir);
  c.serverName = o.serverName ?? c.serverName;
  c.backendHints = o.backendHints ?? c.backendHints;
  c.pins = o.pins ?? c.pins;
  c.pinFiles = (o.pinFiles ?? c.pinFiles).map(expandHome);
  c.promote = { ...c.promote, ...o.promote };
  if (o.transcripts) c.transcripts = o.transcripts.map((t) => ({ type: t.type, root: expandHome(t.root), agent: t.agent ?? DEFAULT_AGENT_ID }));
  c.timeouts = { ...c.timeouts, ...o.timeouts };
  c.maxResultBytes = o.maxResultBytes ?? c.maxResultBytes;
  c.compactDescriptions = o.compactDescriptions ?? c.compactDescriptions;
  if (o.searchAliases) c.searchAliases = Object.fromEntries(Object.entries(o.searchAliases).map(([k, words]) => [k.toLowerCase(), words]));
  c.search = { ...c.search, ...o.search };
  c.desktop = { ...c.desktop, ...o.desktop };

  if (o.agents) {
    const agents = o.agents.map(agent);
    const seen = new Set<string>();
    agents.forEach((a, i) => {
      if (seen.has(a.id)) fail(`agents[${i}].id`, `repeats the agent id "${a.id}"; ids must be unique`);
      seen.add(a.id);
    });
    // The `default` agent always exists: it is what `/mcp` serves.
    c.agents = seen.has(DEFAULT_AGENT_ID) ? agents : [defaultAgent(), ...agents];
  }
  c.defaultAgent = o.defaultAgent ?? c.defaultAgent;
  if (!c.defaultAgent && !c.agents.some((a) => a.id !== DEFAULT_AGENT_ID)) {
    fail('defaultAgent', 'is false, so at least one other agent is needed under "agents" (otherwise no endpoint is served)');
  }
  c.uiSessions = { ...c.uiSessions, ...o.uiSessions };
  c.listChanges = { ...c.listChanges, ...o.listChanges };
  c.activity = { ...c.activity, ...o.activity };
  return c;
}
