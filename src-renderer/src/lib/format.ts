// Small formatting helpers for tables.
export { ago } from '../../../src-main/shared/time';

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
