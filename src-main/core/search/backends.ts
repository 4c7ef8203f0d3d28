// Backends: the groups a catalog falls into — each vendor when names are prefixed, and name prefixes
// shared by several tools (`mail` in `mail_send_message`) — so `search_tools "mail"` lists them.
import type { ToolEntry } from '../toolbox/toolbox.js';

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
  for (const [p, list] of byPrefix) if (list.length >= 2 && !out.has(p)) for (const e of list) push(p, e);
  return out;
}

/** The backend a tool is shown under in the catalog listing. */
export function displayBackend(e: ToolEntry, prefixed: boolean): string {
  if (prefixed) return e.vendor;
  return namePrefix(e.remoteName) ?? 'other';
}
