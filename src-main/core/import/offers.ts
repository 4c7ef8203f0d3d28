// Which found servers import may offer as they are, and why not the others: Working Set's own entry,
// a server that is already an upstream (same command, args and env, or same URL, under any name), or a
// name that is taken (then "import as" a free name). `mws init`'s sample, untouched, is no obstacle: a
// real server of its name replaces it.
import { isDeepStrictEqual } from 'node:util';
import { SAMPLE_UPSTREAMS } from '../config/defaults.js';
import type { FoundWithValues } from './read.js';
import { ownEntry, type SelfKnowledge } from './self.js';
import type { FoundServer } from './types.js';
import { byCodeUnit } from '../../shared/codeUnitOrder.js';

type Blocked = NonNullable<FoundServer['blocked']>;
type Ctx = { self?: SelfKnowledge; upstreams?: Record<string, unknown> };

const sorted = (o: unknown) =>
  Object.fromEntries(
    Object.entries((typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>).sort(([a], [b]) => byCodeUnit(a, b)),
  );

/** What makes two servers the same server: the process started (command, args, env, env file, folder) or the URL. */
export function definitionKey(u: unknown): string | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const o = u as Record<string, unknown>;
  if (typeof o.url === 'string') return `url ${o.url.replace(/\/+$/, '')}`;
  // The env file and the folder it starts in are part of the process too (two projects' servers differ by them).
  if (typeof o.command === 'string')
    return `run ${JSON.stringify([o.command, Array.isArray(o.args) ? o.args : [], sorted(o.env), o.envFile ?? null, o.cwd ?? null])}`;
  return undefined;
}

const REFERENCE = /\$\{(?:secret|input|env):[^}]*\}/;

/**
 * A server imported earlier whose secrets Working Set has since moved to its store: the config names
 * `${secret:…}` where the client's file holds the value. Everything else must be equal; a value in
 * the store is taken as the one the file holds (it cannot be read here), so the same command with the
 * same settings is the same server.
 */
function sameWithStoredSecrets(found: unknown, saved: unknown): boolean {
  if (typeof found !== 'object' || found === null || typeof saved !== 'object' || saved === null) return false;
  const f = found as Record<string, unknown>;
  const s = saved as Record<string, unknown>;
  if (typeof f.command !== 'string' || f.command !== s.command) return false;
  if ((f.envFile ?? null) !== (s.envFile ?? null) || (f.cwd ?? null) !== (s.cwd ?? null)) return false;
  const fa = Array.isArray(f.args) ? (f.args as unknown[]) : [];
  const sa = Array.isArray(s.args) ? (s.args as unknown[]) : [];
  const stored = (v: unknown) => typeof v === 'string' && REFERENCE.test(v);
  const argLike = (x: unknown, y: unknown) =>
    x === y || (typeof x === 'string' && typeof y === 'string' && stored(y) && x.split(REFERENCE)[0] === y.split(REFERENCE)[0]);
  if (fa.length !== sa.length || !fa.every((x, i) => argLike(x, sa[i]))) return false;
  const fe = sorted(f.env);
  const se = sorted(s.env);
  const keys = Object.keys(fe);
  if (keys.join('\n') !== Object.keys(se).join('\n')) return false;
  const anyStored = keys.some((k) => stored(se[k])) || sa.some(stored);
  return anyStored && keys.every((k) => fe[k] === se[k] || stored(se[k]));
}

export function isUntouchedSample(vendor: string, entry: unknown): boolean {
  return Object.hasOwn(SAMPLE_UPSTREAMS, vendor) && isDeepStrictEqual(entry, SAMPLE_UPSTREAMS[vendor]);
}

/** A free name like `memory-2` for a server whose name is taken. */
export function freeName(vendor: string, taken: Set<string>): string {
  for (let i = 2; ; i++) {
    const name = `${vendor.slice(0, 32 - String(i).length - 1)}-${i}`;
    if (!taken.has(name)) return name;
  }
}

/** For each found server, why it is not offered as it is (undefined: it is). */
export function judge(found: FoundWithValues[], ctx: Ctx): Array<Blocked | undefined> {
  const ups = ctx.upstreams ?? {};
  const known = new Map<string, string>(); // definition → the upstream (or earlier server) that has it
  for (const [vendor, u] of Object.entries(ups)) {
    const k = definitionKey(u);
    if (k) known.set(k, vendor);
  }
  const taken = new Set(Object.keys(ups));
  const claimed = new Map<string, string>(); // vendor → the server of this file offered under it
  return found.map((s) => {
    const self = ctx.self && ownEntry(s, ctx.self);
    if (self) return { kind: 'self', reason: self };
    const key = definitionKey(s.upstream);
    const same = (key ? known.get(key) : undefined) ?? Object.keys(ups).find((v) => sameWithStoredSecrets(s.upstream, ups[v]));
    if (same !== undefined) {
      const inConfig = Object.hasOwn(ups, same);
      return {
        kind: 'duplicate',
        reason: inConfig
          ? `it is the same server as the upstream "${same}" (same ${key?.startsWith('url') ? 'URL' : 'command, arguments and env'}), so it is not imported twice`
          : `it is the same server as "${same}" above, so it is imported once`,
      };
    }
    const owner = claimed.get(s.vendor);
    const sample = Object.hasOwn(ups, s.vendor) && isUntouchedSample(s.vendor, ups[s.vendor]);
    if (owner !== undefined || (taken.has(s.vendor) && !sample)) {
      const suggested = freeName(s.vendor, new Set([...taken, ...claimed.keys()]));
      return {
        kind: 'exists',
        suggested,
        reason:
          owner !== undefined ? `"${owner}" above is imported as "${s.vendor}" already` : `an upstream named "${s.vendor}" already exists`,
      };
    }
    claimed.set(s.vendor, s.name);
    if (key) known.set(key, s.name);
    return undefined;
  });
}
