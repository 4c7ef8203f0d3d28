// Which found servers import may offer as they are, and why not the others: Working Set's own entry,
// a server that is already an upstream (same command, args and env, or same URL, under any name), or a
// name that is taken (then "import as" a free name). `mws init`'s sample, untouched, is no obstacle: a
// real server of its name replaces it.
import { isDeepStrictEqual } from 'node:util';
import { isSecretName } from '../redact.js';
import { maskArgs, SECRET_MASK } from '../secrets/args.js';
import { SAMPLE_UPSTREAMS } from '../config/defaults.js';
import type { FoundWithValues } from './read.js';
import { ownEntry, type SelfKnowledge } from './self.js';
import type { FoundServer } from './types.js';

type Blocked = NonNullable<FoundServer['blocked']>;
type Ctx = { self?: SelfKnowledge; upstreams?: Record<string, unknown> };

const sorted = (o: unknown) =>
  Object.fromEntries(
    Object.entries((typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
  );

const REFERENCE = /\$\{(?:secret|input|env):[^}]*\}/g;
/**
 * A value as it compares: a secret is the same secret whether the client's file holds it or Working Set
 * moved it to its store when it was imported (the config then names `${secret:…}` instead).
 */
const comparable = (k: string, v: unknown) =>
  isSecretName(k) || (typeof v === 'string' && /\$\{(?:secret|input|env):[^}]*\}/.test(v)) ? '*' : v;
const comparableArgs = (args: unknown) =>
  maskArgs(
    (Array.isArray(args) ? args : []).map((a) => (typeof a === 'string' ? a.replace(REFERENCE, SECRET_MASK) : String(a))),
    SECRET_MASK,
  );

/** What makes two servers the same server: the process started (command, args, env, env file, folder) or the URL. */
export function definitionKey(u: unknown): string | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const o = u as Record<string, unknown>;
  if (typeof o.url === 'string') return `url ${o.url.replace(/\/+$/, '')}`;
  // The env file and the folder it starts in are part of the process too (two projects' servers differ by them).
  if (typeof o.command === 'string') {
    const env = Object.fromEntries(Object.entries(sorted(o.env)).map(([k, v]) => [k, comparable(k, v)]));
    return `run ${JSON.stringify([o.command, comparableArgs(o.args), env, o.envFile ?? null, o.cwd ?? null])}`;
  }
  return undefined;
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
    const same = key ? known.get(key) : undefined;
    if (same !== undefined) {
      const inConfig = Object.hasOwn(ups, same);
      return {
        kind: 'duplicate',
        reason: inConfig
          ? `it is the same server as the upstream "${same}" (same ${key!.startsWith('url') ? 'URL' : 'command, arguments and env'}), so it is not imported twice`
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
