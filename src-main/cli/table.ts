// Plain-text tables and the words the CLI uses for people: columns padded to their widest cell.
import { printable } from '../core/printable.js';
import { plainText } from '../shared/plainText.js';
export function table(head: string[], rows: Array<Array<string | number | null | undefined>>): string {
  // Cells often hold what an upstream or a client file named: control characters are shown escaped.
  const cells = [head, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '—' : printable(String(c)))))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (c ?? '').padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A tool's kind from its annotations, in the words the window uses. */
export function kindOf(t: { readOnly?: boolean; destructive?: boolean; readOnlyHint?: boolean; destructiveHint?: boolean }): string {
  if (t.readOnly || t.readOnlyHint) return 'read-only';
  if (t.destructive || t.destructiveHint) return 'destructive';
  return 'write';
}

/** The first sentence, cut at a word boundary to fit `max` characters, as plain text (shared/plainText.ts). */
export function brief(text: string | undefined, max = 72): string {
  if (!text) return '';
  const first = plainText(text)
    .split(/(?<=[.!?])\s/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
  if (first.length <= max) return first;
  const cut = first.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:]+$/, '')}…`;
}

export { ago } from '../shared/time.js';
export { plural } from './suggest.js';
