// Relative times for people ("3 h ago"), shared by the CLI and the window. Pure: no Node, no DOM.
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const d = now - Date.parse(iso);
  if (d < 60_000) return 'just now';
  if (d < 3_600_000) return `${Math.round(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.round(d / 3_600_000)} h ago`;
  return `${Math.round(d / 86_400_000)} d ago`;
}
