// Turns the parsed config file into a full Config, refusing the first bad field with its path.
import type { AgentConfig, Config, UpstreamConfig } from './schema.js';
import { DEFAULT_AGENT_ID, SINGLE_UPSTREAM_KEY } from './schema.js';
import { defaultAgent, defaultConfig } from './defaults.js';
import { bool, fail, int, isObj, obj, oneOf, opt, str, strArray, strRecord } from './fields.js';
import { expandHome } from './paths.js';
import { maskUrl } from '../redact.js';

const TOP_FIELDS = [
  'upstream', 'upstreams', 'listen', 'stateDir', 'serverName', 'backendHints', 'pins', 'pinFiles',
  'promote', 'transcripts', 'timeouts', 'maxResultBytes', 'compactDescriptions', 'searchAliases', 'search', 'agents', 'desktop', '$schema',
  'defaultAgent', 'uiSessions',
] as const;

/** Vendor slugs become name prefixes (`vendor__tool`), so keep them short and unambiguous. */
const VENDOR_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
/** Bearer tokens go in a header: printable, no spaces, and long enough not to be guessed. */
const AGENT_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=_-]{16,256}$/;
const AGENT_TOKEN_HINT = 'must be 16 to 256 letters, digits or ._~+/=_- (run `mws agent token <id>` to generate one)';
const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,47}$/;

/** Only loopback addresses may be listened on: the proxy holds every tool the user connected. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function upstream(v: unknown, path: string): UpstreamConfig {
  if (!isObj(v)) fail(path, 'must be an object with "url" (HTTP) or "command" (stdio)', v);
  if ('url' in v) {
    const o = obj(v, path, ['url', 'headers']);
    const url = str(o.url, `${path}.url`, { nonEmpty: true });
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      fail(`${path}.url`, 'must be an absolute http(s) URL', url);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`${path}.url`, 'must use http or https', url);
    if (parsed.username || parsed.password) {
      // Shown as given, a password in the URL would end up in logs and the window.
      fail(`${path}.url`, 'must not carry a user name or password (user:pass@); put the credential in "headers" instead, e.g. {"Authorization": "Bearer …"}', maskUrl(url));
    }
    return { kind: 'http', url, headers: opt(o, 'headers', path, strRecord) ?? {} };
  }
  if ('command' in v) {
    const o = obj(v, path, ['command', 'args', 'env', 'cwd']);
    const cwd = opt(o, 'cwd', path, (x, p) => str(x, p, { nonEmpty: true }));
    return {
      kind: 'stdio',
      command: str(o.command, `${path}.command`, { nonEmpty: true }),
      args: opt(o, 'args', path, strArray) ?? [],
      env: opt(o, 'env', path, strRecord) ?? {},
      cwd: cwd === undefined ? undefined : expandHome(cwd),
    };
  }
  if ('builtin' in v) {
    const o = obj(v, path, ['builtin']);
    return { kind: 'builtin', name: oneOf(o.builtin, `${path}.builtin`, ['demo'] as const) };
  }
  fail(path, 'needs "url" for an HTTP server or "command" for a stdio server', v);
}

function agent(v: unknown, path: string): AgentConfig {
  const o = obj(v, path, ['id', 'name', 'cap', 'idleWindowDays', 'approvals', 'pins', 'token']);
  const id = str(o.id, `${path}.id`, {
    pattern: AGENT_ID_PATTERN,
    hint: 'must be a slug: lowercase letters, digits and dashes, starting with a letter or digit',
  });
  const base = defaultAgent(id);
  return {
    id,
    name: opt(o, 'name', path, (x, p) => str(x, p, { nonEmpty: true })) ?? base.name,
    cap: opt(o, 'cap', path, (x, p) => int(x, p, 1, 500)) ?? base.cap,
    idleWindowDays: opt(o, 'idleWindowDays', path, (x, p) => int(x, p, 1, 3650)) ?? base.idleWindowDays,
    approvals: opt(o, 'approvals', path, (x, p) => oneOf(x, p, ['ask', 'allow', 'read-only'] as const)) ?? base.approvals,
    pins: opt(o, 'pins', path, strArray) ?? [],
    token: opt(o, 'token', path, (x, p) => str(x, p, { pattern: AGENT_TOKEN_PATTERN, hint: AGENT_TOKEN_HINT })),
  };
}

export function validateConfig(raw: unknown, defaultStateDir: string): Config {
  const c = defaultConfig(defaultStateDir);
  if (raw === undefined) return c;
  const o = obj(raw, '', TOP_FIELDS);

  if ('upstream' in o && 'upstreams' in o) fail('upstream', 'cannot be used together with "upstreams"; keep one of them');
  const single = opt(o, 'upstream', '', upstream);
  if (single) {
    c.upstreams = { [SINGLE_UPSTREAM_KEY]: single };
    c.prefixNames = false;
  }
  const many = opt(o, 'upstreams', '', (v, p) => {
    if (!isObj(v)) fail(p, 'must be an object keyed by vendor slug', v);
    const out: Record<string, UpstreamConfig> = {};
    for (const [vendor, u] of Object.entries(v)) {
      if (!VENDOR_PATTERN.test(vendor)) fail(`${p}.${vendor}`, 'has a key that is not a vendor slug (lowercase letters, digits and dashes, up to 32)');
      out[vendor] = upstream(u, `${p}.${vendor}`);
    }
    return out;
  });
  if (many) c.upstreams = many;

  const listen = opt(o, 'listen', '', (v, p) => obj(v, p, ['host', 'port']));
  if (listen) {
    const host = opt(listen, 'host', 'listen', (x, p) => str(x, p, { nonEmpty: true }));
    if (host !== undefined && !isLoopbackHost(host)) {
      fail('listen.host', 'must be a loopback address (127.0.0.1, ::1 or localhost); the proxy never listens on a network', host);
    }
    c.listen = { host: host ?? c.listen.host, port: opt(listen, 'port', 'listen', (x, p) => int(x, p, 0, 65535)) ?? c.listen.port };
  }
  c.stateDir = expandHome(opt(o, 'stateDir', '', (x, p) => str(x, p, { nonEmpty: true })) ?? c.stateDir);
  c.serverName = opt(o, 'serverName', '', (x, p) => str(x, p, { pattern: /^[A-Za-z0-9_-]{1,64}$/, hint: 'must be letters, digits, "_" or "-"' })) ?? c.serverName;
  c.backendHints = opt(o, 'backendHints', '', strRecord) ?? c.backendHints;
  c.pins = opt(o, 'pins', '', strArray) ?? c.pins;
  c.pinFiles = (opt(o, 'pinFiles', '', strArray) ?? c.pinFiles).map(expandHome);

  const promote = opt(o, 'promote', '', (v, p) => obj(v, p, ['minSessions', 'minCalls', 'windowDays', 'keepDays', 'pinDecayDays']));
  if (promote) {
    const r = (k: keyof Config['promote'], min: number, max: number) => opt(promote, k, 'promote', (x, p) => int(x, p, min, max)) ?? c.promote[k];
    c.promote = {
      minSessions: r('minSessions', 1, 1000),
      minCalls: r('minCalls', 1, 100_000),
      windowDays: r('windowDays', 1, 3650),
      keepDays: r('keepDays', 1, 3650),
      pinDecayDays: r('pinDecayDays', 1, 3650),
    };
  }

  c.transcripts = opt(o, 'transcripts', '', (v, p) => {
    if (!Array.isArray(v)) fail(p, 'must be an array', v);
    return v.map((t, i) => {
      const to = obj(t, `${p}[${i}]`, ['type', 'root', 'agent']);
      return {
        type: oneOf(to.type, `${p}[${i}].type`, ['claude-code'] as const),
        root: expandHome(str(to.root, `${p}[${i}].root`, { nonEmpty: true })),
        agent: opt(to, 'agent', `${p}[${i}]`, (x, q) => str(x, q, { pattern: AGENT_ID_PATTERN, hint: 'must be an agent id' })) ?? DEFAULT_AGENT_ID,
      };
    });
  }) ?? c.transcripts;

  const timeouts = opt(o, 'timeouts', '', (v, p) => obj(v, p, ['listMs', 'connectMs', 'callMs', 'catalogTtlMs', 'approvalMs']));
  if (timeouts) {
    c.timeouts = {
      listMs: opt(timeouts, 'listMs', 'timeouts', (x, p) => int(x, p, 50, 600_000)) ?? c.timeouts.listMs,
      connectMs: opt(timeouts, 'connectMs', 'timeouts', (x, p) => int(x, p, 100, 3_600_000)) ?? c.timeouts.connectMs,
      callMs: opt(timeouts, 'callMs', 'timeouts', (x, p) => int(x, p, 50, 86_400_000)) ?? c.timeouts.callMs,
      catalogTtlMs: opt(timeouts, 'catalogTtlMs', 'timeouts', (x, p) => int(x, p, 0, 86_400_000)) ?? c.timeouts.catalogTtlMs,
      approvalMs: opt(timeouts, 'approvalMs', 'timeouts', (x, p) => int(x, p, 100, 86_400_000)) ?? c.timeouts.approvalMs,
    };
  }
  c.maxResultBytes = opt(o, 'maxResultBytes', '', (x, p) => int(x, p, 1024, 1024 * 1024 * 1024)) ?? c.maxResultBytes;
  c.compactDescriptions = opt(o, 'compactDescriptions', '', bool) ?? c.compactDescriptions;
  c.searchAliases = opt(o, 'searchAliases', '', (v, p) => {
    if (!isObj(v)) fail(p, 'must be an object of word → array of words', v);
    const out: Record<string, string[]> = {};
    for (const [k, words] of Object.entries(v)) out[k.toLowerCase()] = strArray(words, `${p}.${k}`);
    return out;
  }) ?? c.searchAliases;
  const search = opt(o, 'search', '', (v, p) => obj(v, p, ['learn']));
  if (search) c.search = { learn: opt(search, 'learn', 'search', bool) ?? c.search.learn };

  const desktop = opt(o, 'desktop', '', (v, p) => obj(v, p, ['notifyDemotions', 'notifyUpstreams', 'notifyApprovals', 'startAtLogin']));
  if (desktop) {
    c.desktop = {
      notifyDemotions: opt(desktop, 'notifyDemotions', 'desktop', bool) ?? c.desktop.notifyDemotions,
      notifyUpstreams: opt(desktop, 'notifyUpstreams', 'desktop', bool) ?? c.desktop.notifyUpstreams,
      notifyApprovals: opt(desktop, 'notifyApprovals', 'desktop', bool) ?? c.desktop.notifyApprovals,
      startAtLogin: opt(desktop, 'startAtLogin', 'desktop', bool) ?? c.desktop.startAtLogin,
    };
  }

  const agents = opt(o, 'agents', '', (v, p) => {
    if (!Array.isArray(v)) fail(p, 'must be an array of agents', v);
    return v.map((a, i) => agent(a, `${p}[${i}]`));
  });
  if (agents) {
    const seen = new Set<string>();
    agents.forEach((a, i) => {
      if (seen.has(a.id)) fail(`agents[${i}].id`, `repeats the agent id "${a.id}"; ids must be unique`);
      seen.add(a.id);
    });
    // The `default` agent always exists: it is what `/mcp` serves.
    c.agents = seen.has(DEFAULT_AGENT_ID) ? agents : [defaultAgent(), ...agents];
  }
  c.defaultAgent = opt(o, 'defaultAgent', '', bool) ?? c.defaultAgent;
  if (!c.defaultAgent && !c.agents.some((a) => a.id !== DEFAULT_AGENT_ID)) {
    fail('defaultAgent', 'is false, so at least one other agent is needed under "agents" (otherwise no endpoint is served)');
  }
  const ui = opt(o, 'uiSessions', '', (v, p) => obj(v, p, ['idleMinutes', 'maxHours']));
  if (ui) {
    c.uiSessions = {
      idleMinutes: opt(ui, 'idleMinutes', 'uiSessions', (x, p) => int(x, p, 1, 7 * 24 * 60)) ?? c.uiSessions.idleMinutes,
      maxHours: opt(ui, 'maxHours', 'uiSessions', (x, p) => int(x, p, 1, 24 * 90)) ?? c.uiSessions.maxHours,
    };
  }
  return c;
}
