// What a call record may hold. Client names, session ids and unknown tool names come from whoever can
// reach the MCP port (no credential needed on loopback), so every text is cut and arguments past a
// bound are replaced by a marker before the record is written: one record stays a few KB, whatever
// a client sends, and the log's ceiling on disk (store/jsonl.ts rotation) holds in records, not bytes.
import type { CallRecord, SearchRecord } from './callRecordTypes.js';

/** The most characters of any one text a record keeps (a client's name and version, a tool's name). */
export const RECORD_TEXT_MAX_CHARS = 200;
/** Recorded arguments (activity.recordArguments) larger than this, as JSON, are replaced by a marker. */
export const RECORD_ARGUMENTS_MAX_BYTES = 32 * 1024;
/** The start of a result kept (activity.recordArguments): a preview, cut well inside the arguments' bound. */
export const RECORD_RESULT_MAX_CHARS = 8 * 1024;

export const ARGUMENTS_DROPPED = { _dropped: 'arguments over 32 KB' } as const;

/** A text cut to `max` characters (never splitting a surrogate pair), with the cut marked. */
export function capText(s: string, max = RECORD_TEXT_MAX_CHARS): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

function argumentsWithinBound(args: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(args);
  } catch {
    return ARGUMENTS_DROPPED;
  }
  return json !== undefined && Buffer.byteLength(json) > RECORD_ARGUMENTS_MAX_BYTES ? ARGUMENTS_DROPPED : args;
}

export function boundCallRecord(r: CallRecord): CallRecord {
  const out: CallRecord = {
    ...r,
    agent: capText(r.agent),
    tool: capText(r.tool),
    client: capText(r.client),
    session: r.session === null ? null : capText(r.session),
  };
  if (r.upstream !== undefined) out.upstream = capText(r.upstream);
  if (r.arguments !== undefined) out.arguments = argumentsWithinBound(r.arguments);
  if (r.result !== undefined) out.result = capText(r.result, RECORD_RESULT_MAX_CHARS);
  return out;
}

export function boundSearchRecord(r: SearchRecord): SearchRecord {
  return { ...r, agent: capText(r.agent), client: capText(r.client) };
}
