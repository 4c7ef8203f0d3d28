// An upstream's whole tools/list, page by page, without the SDK's schema parse or response cache.
// The SDK's listTools() runs every tool through zod and stores an encoded copy of the whole list: on
// a large toolbox that is a long stretch of synchronous CPU on each re-list, paid again every
// catalogTtlMs, for a list this proxy only compares with the one it has. Here each tool is checked for
// the fields the proxy reads, and a malformed one is left out (named in a warning) instead of
// failing the whole list.
import type { Client, Tool } from '@modelcontextprotocol/client';
import { MwsError } from '../errors.js';
import { hasUnsafeText, plainText } from '../../shared/plainText.js';
import { isPlainObject } from '../../shared/plainObject.js';

/** Pages of a paginated tools/list followed (the SDK stops at 64): 20,000 tools in pages of 10 fit. */
export const LIST_MAX_PAGES = 10_000;

/** Hands the result on as it is: the shape is checked tool by tool below, not by the SDK. */
const PASS_THROUGH = { '~standard': { version: 1 as const, vendor: 'mcp-working-set', validate: (value: unknown) => ({ value }) } };

const optional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);
const isString = (v: unknown) => typeof v === 'string';

/**
 * Control and invisible format characters (ESC, BEL, newlines, bidi overrides, zero-width): a tool
 * name holding one would reach every client's tools/list and terminal as it is.
 */
const UNSAFE_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** A tool name as a log line or the window may show it: control characters escaped. */
export function shownName(name: string): string {
  return UNSAFE_NAME.test(name)
    ? JSON.stringify(name)
        .slice(1, -1)
        .replace(/[\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : name;
}

/** The fields the toolbox, listings, search and calls read, with the types they read them as. */
export function isWellFormedTool(t: unknown): t is Tool {
  if (!isPlainObject(t) || typeof t.name !== 'string' || t.name === '' || UNSAFE_NAME.test(t.name)) return false;
  const input = t.inputSchema;
  if (!isPlainObject(input) || !optional(input.properties, isPlainObject)) return false;
  return (
    optional(t.description, isString) &&
    optional(t.title, isString) &&
    optional(t.outputSchema, isPlainObject) &&
    optional(t.annotations, isPlainObject)
  );
}

const unsafe = (v: unknown): v is string => typeof v === 'string' && hasUnsafeText(v);

/**
 * A tool's title and description as every client, the window and the CLI may show them: without bidi
 * controls (a right-to-left override shows text reversed) and control characters but tab and newline.
 * Done here, once, so the toolbox, search, listings and the approvals card all hold the plain text.
 */
export function plainTool(t: Tool): Tool {
  const a = t.annotations as Record<string, unknown> | undefined;
  if (!unsafe(t.title) && !unsafe(t.description) && !unsafe(a?.title)) return t;
  const out: Tool = { ...t };
  if (t.title !== undefined) out.title = plainText(t.title);
  if (t.description !== undefined) out.description = plainText(t.description);
  if (a && typeof a.title === 'string') out.annotations = { ...t.annotations, title: plainText(a.title) };
  return out;
}

export type ToolListing = {
  tools: Tool[];
  /** Names (or positions) of the tools left out as malformed. */
  skipped: string[];
  /** Names listed again after their first: left out, so the upstream's count is the toolbox's (the toolbox keeps the first). */
  repeated: string[];
};

/** Every page of tools/list within `remaining()` ms in all; pagination ends at a missing or repeated cursor. */
export async function listAllTools(client: Client, vendor: string, remaining: () => number): Promise<ToolListing> {
  const tools: Tool[] = [];
  const skipped: string[] = [];
  const repeated: string[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= LIST_MAX_PAGES) {
      throw new MwsError(
        'upstream_unavailable',
        `Upstream "${vendor}" answered more than ${LIST_MAX_PAGES} pages of tools/list; its pagination does not end.`,
        { vendor },
      );
    }
    const r = (await client.request(
      { method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) } as never,
      PASS_THROUGH,
      { timeout: remaining() },
    )) as Record<string, unknown>;
    if (!Array.isArray(r.tools)) {
      throw new MwsError(
        'upstream_unavailable',
        `Upstream "${vendor}" answered tools/list without a "tools" array; it is not listed until it answers one.`,
        { vendor },
      );
    }
    for (const t of r.tools as unknown[]) {
      if (isWellFormedTool(t)) {
        if (seen.has(t.name)) {
          repeated.push(t.name.slice(0, 200));
        } else {
          seen.add(t.name);
          tools.push(plainTool(t));
        }
      } else
        skipped.push(
          isPlainObject(t) && typeof t.name === 'string' ? shownName(t.name.slice(0, 200)) : `#${tools.length + skipped.length}`,
        );
    }
    const next = r.nextCursor;
    if (typeof next !== 'string' || next === cursor) break;
    cursor = next;
  }
  return { tools, skipped, repeated };
}
