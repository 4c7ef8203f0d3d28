// How long a client must let one call of Working Set run: an approval answers within
// `timeouts.approvalAnswerMs`, and the upstream then has up to `timeouts.callMs`. Clients with a
// per-server timeout (Codex's `tool_timeout_sec`, 60 s by default) get it written into their entry.
import type { Timeouts } from '../config/schema.js';

/** Rounded up to half minutes, so the figure in a config file reads as chosen, not computed. */
export function clientToolTimeoutSec(t: Pick<Timeouts, 'callMs' | 'approvalAnswerMs'>): number {
  return Math.ceil((t.callMs + t.approvalAnswerMs) / 30_000) * 30;
}

/** The figure for the default timeouts (120 s per call, 50 s approval answer). */
export const DEFAULT_CLIENT_TOOL_TIMEOUT_SEC = clientToolTimeoutSec({ callMs: 120_000, approvalAnswerMs: 50_000 });
