// The answer to search_tools with no query: every tool by name, grouped by backend, the listed ones
// marked, cut to fit a search reply's size.
import type { Toolbox, ToolEntry } from '../toolbox/toolbox.js';
import { displayBackend } from './backends.js';
import { SEARCH_REPLY_MAX_BYTES, type SearchAnswer } from './reply.js';

/**
 * No query: every tool by name, grouped by backend, listed ones marked with `*` (kind `overview`; the
 * reply's key stays `catalog`, which models read).
 */
export function overview(tb: Toolbox, isPromoted: (e: ToolEntry) => boolean): SearchAnswer {
  const groups: Record<string, string[]> = {};
  for (const e of tb.all()) (groups[displayBackend(e, tb.prefixNames)] ??= []).push(isPromoted(e) ? `${e.name}*` : e.name);
  const head = { total: tb.size, note: '* = in your tool list. Search by words or a backend name for details.' };
  let reply: Record<string, unknown> = { ...head, catalog: groups };
  if (Buffer.byteLength(JSON.stringify(reply)) > SEARCH_REPLY_MAX_BYTES) {
    // Too many to name: per backend, as many names as fit evenly, and how many more there are.
    const names = Object.entries(groups);
    let per = Math.max(1, Math.floor(SEARCH_REPLY_MAX_BYTES / 40 / Math.max(1, names.length)));
    const shrink = () =>
      Object.fromEntries(
        names.map(([b, list]) => [b, list.length > per ? [...list.slice(0, per), `…${list.length - per} more (search "${b}")`] : list]),
      );
    reply = { ...head, catalog: shrink() };
    while (Buffer.byteLength(JSON.stringify(reply)) > SEARCH_REPLY_MAX_BYTES && per > 0) {
      per = per > 1 ? per - 1 : 0;
      reply = per > 0 ? { ...head, catalog: shrink() } : { ...head, backends: Object.fromEntries(names.map(([b, l]) => [b, l.length])) };
    }
  }
  return { text: JSON.stringify(reply), results: tb.size, kind: 'overview', names: [] };
}
