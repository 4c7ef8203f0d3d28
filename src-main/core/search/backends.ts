// Backends: the groups a catalog falls into — each vendor when names are prefixed, and name prefixes
// shared by several tools (`mail` in `mail_send_message`) — so `search_tools "mail"` lists them.
import type { ToolEntry } from '../toolbox/toolbox.js';
import { splitWords } from './text.js';

/** Prefixes that are verbs, not backends: `get_user` and `get_order` share a word, not a service. */
const VERB_PREFIXES = new Set([
  'get',
  'list',
  'create',
  'update',
  'delete',
  'set',
  'search',
  'find',
  'read',
  'write',
  'send',
  'add',
  'remove',
  'run',
  'make',
  'fetch',
  'put',
  'post',
  'check',
  'is',
  'has',
  'do',
  'start',
  'stop',
]);

function namePrefix(remoteName: string): string | undefined {
  const m = /^([a-z0-9]+)[_.-]/i.exec(remoteName);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** Backend name → its tools in catalog order. */
export function backendsOf(entries: readonly ToolEntry[], prefixed: boolean): Map<string, ToolEntry[]> {
  const out = new Map<string, ToolEntry[]>();
  const push = (k: string, e: ToolEntry) => {
    const list = out.get(k);
    if (list) list.push(e);
    else out.set(k, [e]);
  };
  if (prefixed) for (const e of entries) push(e.vendor.toLowerCase(), e);
  const byPrefix = new Map<string, ToolEntry[]>();
  for (const e of entries) {
    const p = namePrefix(e.remoteName);
    if (p && !VERB_PREFIXES.has(p)) byPrefix.set(p, [...(byPrefix.get(p) ?? []), e]);
  }
  const nameWords = prefixUses(entries, byPrefix);
  for (const [p, list] of byPrefix)
    if (list.length >= 2 && !out.has(p) && isServiceWord(list.length, nameWords.get(p) ?? 0)) for (const e of list) push(p, e);
  return out;
}

/**
 * A shared name prefix is a service (`github_…`, `mail_…`) unless the catalog's other tools use the
 * word in their names at least as often as its own group does: then it is a thing the tools act on. In
 * a catalog of many vendors `car_rental_search` sits beside `tripnest.watchCarRental` and
 * `skyroute_cancel_car_rental`, and a request about a rental car names no backend. Real servers'
 * prefixes appear in no other tool's name, or in a few (`getGitHubIssue` beside twelve `git_…` tools);
 * object words in as many others as their group or more (docs/research/search.md, "Which prefixes are
 * backends"). A few uses never drop a prefix, so a server cannot take another's backend apart with a
 * couple of names.
 */
function isServiceWord(groupSize: number, usesElsewhere: number): boolean {
  return usesElsewhere < MIN_OBJECT_USES || usesElsewhere < groupSize;
}
/** Fewer uses of a prefix in other tools' names than this never make it an object word. */
const MIN_OBJECT_USES = 3;

/** For each candidate prefix, how many tools outside its group have the word in their names. */
function prefixUses(entries: readonly ToolEntry[], byPrefix: ReadonlyMap<string, ToolEntry[]>): Map<string, number> {
  const uses = new Map<string, number>();
  for (const e of entries) {
    const own = namePrefix(e.remoteName);
    for (const w of new Set(splitWords(e.remoteName))) if (w !== own && byPrefix.has(w)) uses.set(w, (uses.get(w) ?? 0) + 1);
  }
  return uses;
}

/** The backend a tool is shown under in the catalog listing. */
export function displayBackend(e: ToolEntry, prefixed: boolean): string {
  if (prefixed) return e.vendor;
  return namePrefix(e.remoteName) ?? 'other';
}
