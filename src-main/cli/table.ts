// Plain-text tables for the CLI: columns padded to their widest cell.
export function table(head: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '—' : String(c))))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (c ?? '').padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}


export { ago } from '../shared/time.js';
