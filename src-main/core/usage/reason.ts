// The reason the activity log gives for a failed or refused call: one line, bounded, URLs masked. It is
// Working Set's own sentence, or the first line of the tool's error text — never arguments, and of a
// result only the line the tool chose to explain its error with.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { logSafe } from '../redact.js';

/** A reason is read in a table cell: a sentence or two, not a trace. */
export const REASON_MAX_CHARS = 300;

/** `text` as one bounded line. */
export function reasonLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l) ?? '';
  const safe = logSafe(line);
  return safe.length > REASON_MAX_CHARS ? `${safe.slice(0, REASON_MAX_CHARS - 1)}…` : safe;
}

/** The first text of a result (an isError answer, or a refusal Working Set gave instead of the call). */
export function resultReason(result: CallToolResult, fallback: string): string {
  const text = (result.content ?? []).find((c) => c.type === 'text');
  const line = text && text.type === 'text' ? reasonLine(text.text) : '';
  return line || fallback;
}
