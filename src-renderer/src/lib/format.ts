// Small formatting helpers for tables.
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const d = now - Date.parse(iso);
  if (d < 60_000) return 'just now';
  if (d < 3_600_000) return `${Math.round(d / 60_000)} min ago`;
  if (d < 86_400_000) return `${Math.round(d / 3_600_000)} h ago`;
  return `${Math.round(d / 86_400_000)} d ago`;
}

export function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export const CAUSE_TEXT: Record<string, string> = {
  agent: 'the agent asked',
  user: 'you',
  usage: 'usage',
  pin: 'a pin',
  idle: 'unused past the idle window',
  cap: 'over the working-set cap',
  revoked: 'its upstream was removed',
};

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
