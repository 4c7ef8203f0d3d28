// What the log says of an upstream that stays down: a sentence a person can act on (the window's
// words, shared/errorWords.ts) instead of the SDK's "Version negotiation probe failed: fetch failed",
// written when the reason changes and then at 1, 2, 4, 8… failed attempts in a row — not every retry.
import { upstreamFailure } from '../../shared/errorWords.js';
import { maskUrl } from '../redact.js';
import type { UpstreamConfig } from '../config/schema.js';

/** The failure in words, with the URL (masked) or command it concerns. */
export function downSentence(error: string, config: UpstreamConfig): string {
  return upstreamFailure(
    error,
    config.kind === 'http' ? { url: maskUrl(config.url) } : config.kind === 'stdio' ? { command: config.command } : {},
  );
}

export class DownLog {
  private reason: string | undefined;
  private failures = 0;

  /** Counts one failed attempt; answers the line to log, or undefined when this one is a repeat to stay quiet about. */
  failed(vendor: string, error: string, config: UpstreamConfig, retryMs: number): string | undefined {
    const sentence = downSentence(error, config);
    const changed = sentence !== this.reason;
    this.failures = changed ? 1 : this.failures + 1;
    this.reason = sentence;
    const n = this.failures;
    if (!changed && (n & (n - 1)) !== 0) return undefined;
    const again = `retrying in ${retryMs < 1000 ? `${retryMs} ms` : `${Math.round(retryMs / 1000)} s`}`;
    return `upstream "${vendor}" is down: ${sentence.replace(/\.$/, '')}. ${again[0]!.toUpperCase()}${again.slice(1)}${n > 1 ? ` (${n} attempts in a row; said again at ${n * 2} or when the reason changes)` : ''}.`;
  }

  /** The upstream is up: answers the line to log when its being down was logged. */
  up(vendor: string): string | undefined {
    const was = this.reason !== undefined;
    this.reason = undefined;
    this.failures = 0;
    return was ? `upstream "${vendor}" is up again.` : undefined;
  }
}
