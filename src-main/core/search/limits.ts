// Bounds on the work one search request may cause. Any input — a 1 MB query, a 1,200-letter word, an
// unknown tool name of any length — must cost a bounded, small amount of CPU and memory, because one
// search blocks every other agent of the proxy while it runs.

/** Queries are cut here (at a word boundary): a request for a tool is a sentence, not a document. */
export const MAX_QUERY_CHARS = 512;
/** At most this many content words of a query are read (then typo-corrected or expanded). */
export const MAX_QUERY_WORDS = 40;
/**
 * Of those, at most this many are scored: the rarest ones, which say most about the tool. A request
 * for one or two tools has fewer; forty common words ("get list create file data…") each walk a
 * posting list of thousands of tools, and scoring them all would cost more than the rest of the search.
 */
export const MAX_SCORED_WORDS = 12;
/** Words longer than this are never typo-corrected: no real word is, and the candidate count grows as length². */
export const MAX_TYPO_WORD_CHARS = 24;
/** At most this many words of one query are typo-corrected; later unknown words are taken as they are. */
export const MAX_TYPO_WORDS_PER_QUERY = 6;
/** Unknown tool names are cut here before ranking them as words (MCP tool names are at most 128 characters). */
export const MAX_NAME_CHARS = 128;
/**
 * Fuzzy name matching (fuse.js's bitap) looks at this many characters of a name: one machine word of
 * bitap state. Longer patterns are matched in 32-character chunks, each a scan of every candidate.
 */
export const NEAR_NAME_CHARS = 32;

/** The query cut to MAX_QUERY_CHARS at the last space before it, and whether it was cut. */
export function capQuery(query: string): { query: string; cut: boolean } {
  if (query.length <= MAX_QUERY_CHARS) return { query, cut: false };
  const head = query.slice(0, MAX_QUERY_CHARS);
  const space = head.search(/\s\S*$/);
  return { query: (space > MAX_QUERY_CHARS / 2 ? head.slice(0, space) : head).trim(), cut: true };
}

export const QUERY_CUT_NOTE = `The query was longer than ${MAX_QUERY_CHARS} characters; only its start was searched. Describe one task in a sentence.`;
