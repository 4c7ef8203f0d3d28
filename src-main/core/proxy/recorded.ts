// What the activity log keeps of a call when the user turned on `activity.recordArguments`: a bounded
// preview of the arguments (as the approvals inbox shows them) and the start of the result's text.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { jsonBytes, preview } from '../approvals/pending.js';

/** Per call, at most this much of each: the log is read in a list, not replayed. */
export const RECORDED_MAX_BYTES = 4096;

export function recordedContent(
  args: Record<string, unknown> | undefined,
  result: CallToolResult | undefined,
): { arguments: unknown; result?: string } {
  const shown = preview(args ?? {});
  const bytes = jsonBytes(shown);
  const out: { arguments: unknown; result?: string } = {
    arguments: bytes <= RECORDED_MAX_BYTES ? shown : `(${jsonBytes(args)} bytes of arguments, too many to keep)`,
  };
  if (result) {
    const text = (result.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    out.result =
      text.length > RECORDED_MAX_BYTES
        ? `${text.slice(0, RECORDED_MAX_BYTES)}… (${text.length - RECORDED_MAX_BYTES} more characters)`
        : text;
  }
  return out;
}
