// Small formatting helpers for tables and cards.
export { ago } from '../../../src-main/shared/time';
export { fieldError, rangeText, upstreamFailure, withBounds, type FieldError } from '../../../src-main/shared/errorWords';
import { plainText } from '../../../src-main/shared/plainText';
export { plainText };

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
  revoked: 'its upstream is gone or refused access',
};

/** An error's sentence; it may quote an upstream, so it is shown as plain text (no bidi or control characters). */
export function errorText(err: unknown): string {
  return plainText(err instanceof Error ? err.message : String(err));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "12 s", "3 min": for waits measured in seconds to minutes. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** Arguments as readable JSON, cut to `max` characters; a bidi control in them would show the card's text reversed. */
export function argsText(args: Record<string, unknown>, max = 600): string {
  const text = plainText(JSON.stringify(args, null, 2));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The first sentences of a description up to `max` characters, cut at a word, as plain text (shared/plainText.ts). */
export function brief(text: string | null | undefined, max = 160): string {
  if (!text) return '';
  const t = plainText(text).replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:]+$/, '')}…`;
}
