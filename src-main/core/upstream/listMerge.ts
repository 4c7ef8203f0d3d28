// A new list of an upstream's tools, set against the one before: an unchanged tool keeps its object,
// so its hash and listing are not computed again (toolbox/hash.ts, Toolbox.listed).
import type { Tool } from '@modelcontextprotocol/client';
import { TimeSlicer } from '../timeSlice.js';
import { textDigest } from '../textDigest.js';
import { shareStrings } from '../sharedStrings.js';
import { ACCEPT_CHECK_EVERY, ACCEPT_SLICE_MS } from './catalogFile.js';

/** A tool's definition as listed, in 22 characters: equal JSON, equal digest. */
const digestOf = (tool: Tool): string => textDigest(JSON.stringify(tool));

/**
 * The list before (`digests` holds a digest of each tool's JSON, in list order: changes are found tool
 * by tool without keeping a second copy of every definition as text).
 */
export type Listed = { tools: Tool[] | undefined; digests?: string[] | undefined };

/**
 * `tools` merged over `before`: undefined when the lists are equal, else the list to keep (the old
 * objects where a tool did not change) and its digests. Compared in slices with the event loop free
 * between them; `abandoned` is asked at each pause and stops the work (answering undefined).
 */
export async function mergeListed(
  before: Listed,
  tools: Tool[],
  abandoned: () => boolean,
): Promise<{ tools: Tool[]; digests: string[] } | { same: true; digests: string[] } | undefined> {
  const prev = before.tools;
  const at = new Map<string, number>();
  prev?.forEach((t, i) => at.set(t.name, i));
  let same = prev !== undefined && prev.length === tools.length;
  const next: Tool[] = new Array(tools.length);
  const digests: string[] = new Array(tools.length);
  const slicer = new TimeSlicer({ sliceMs: ACCEPT_SLICE_MS, checkEvery: ACCEPT_CHECK_EVERY });
  for (let i = 0; i < tools.length; i++) {
    if ((await slicer.maybeYield()) && abandoned()) return undefined;
    const d = digestOf(tools[i]!);
    const j = at.get(tools[i]!.name);
    const old = j === undefined ? undefined : prev![j]!;
    next[i] = old !== undefined && (before.digests?.[j!] ?? digestOf(old)) === d ? old : tools[i]!;
    digests[i] = d;
    if (same && prev![i] !== next[i]) same = false;
  }
  if (same) return { same: true, digests };
  // The new definitions' repeated texts, kept once (the unchanged tools are the old objects).
  shareStrings(next.filter((t, i) => t === tools[i]));
  return { tools: next, digests };
}
