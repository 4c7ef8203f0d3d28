// Shapes search results into the compact JSON reply a model reads, within SEARCH_REPLY_MAX_BYTES:
// first long descriptions are trimmed, then schemas dropped (the model can ask by exact name),
// then the lowest entries dropped.
import type { ToolEntry } from '../toolbox/toolbox.js';

/** Search replies land in the model's context; 6 KB is about 1,500 tokens, a fair price for one lookup. */
export const SEARCH_REPLY_MAX_BYTES = 6 * 1024;
/** Only the best few hits carry a schema; the rest are one exact-name search away. */
export const SCHEMAS_FOR_TOP = 3;
const DESCRIPTION_STEPS = [400, 200, 100];

export type HitView = {
  name: string;
  promoted: boolean;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  description?: string;
  inputSchema?: unknown;
};

export function hitView(e: ToolEntry, promoted: boolean, withSchema: boolean, descMax?: number): HitView {
  const desc = e.tool.description ?? '';
  const v: HitView = { name: e.name, promoted, readOnlyHint: e.readOnly, destructiveHint: e.destructive };
  if (desc) v.description = descMax !== undefined && desc.length > descMax ? desc.slice(0, descMax - 1).trimEnd() + '…' : desc;
  if (withSchema) v.inputSchema = e.tool.inputSchema;
  return v;
}

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** Builds `{...head, results}` under the byte budget. */
export function budgetedReply(
  head: Record<string, unknown>,
  entries: ToolEntry[],
  isPromoted: (e: ToolEntry) => boolean,
  maxBytes = SEARCH_REPLY_MAX_BYTES,
): { reply: Record<string, unknown>; shown: number } {
  let schemas = Math.min(SCHEMAS_FOR_TOP, entries.length);
  let descMax: number | undefined;
  let count = entries.length;
  const build = () => ({ ...head, results: entries.slice(0, count).map((e, i) => hitView(e, isPromoted(e), i < schemas, descMax)) });
  let reply: Record<string, unknown> = build();
  for (const step of DESCRIPTION_STEPS) {
    if (size(reply) <= maxBytes) break;
    descMax = step;
    reply = build();
  }
  while (size(reply) > maxBytes && schemas > 0) {
    schemas--;
    reply = build();
  }
  while (size(reply) > maxBytes && count > 1) {
    count--;
    reply = build();
  }
  if (count < entries.length) reply = { ...reply, more: `${entries.length - count} more matched; narrow the query to see them.` };
  return { reply, shown: count };
}

/** What search_tools answers: the reply a model reads, and what it holds. */
export type SearchAnswer = {
  text: string;
  results: number;
  kind: 'exact' | 'backend' | 'ranked' | 'overview' | 'none';
  /** Tool names in the reply, best first. */ names: string[];
};
