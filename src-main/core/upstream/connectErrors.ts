// How a failed start or call of an upstream is read: the SDK's errors (anywhere in their causes) and
// our own codes, told apart so the connection knows whether to sign in, fall back, or call it down.
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError, errorMessage } from '../errors.js';
import { within } from '../deadline.js';
import { loadedClientSdk } from './clientSdk.js';
import { legacyIssuer } from './oauth/legacyIssuer.js';
import { MODERN_REVISION } from '../protocol.js';
import { downSentence } from './downLog.js';
import type { UpstreamStatus } from './types.js';

/** The revisions an unsupported-protocol-version error names (`data.supported`), anywhere in its causes. */
export function supportedVersions(err: unknown): string[] {
  for (let e = err as { data?: { supported?: unknown }; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    const s = e.data?.supported;
    if (Array.isArray(s)) return s.filter((v): v is string => typeof v === 'string');
  }
  return [];
}

export function cfgUrl(cfg: UpstreamConfig): string | undefined {
  return cfg.kind === 'http' ? cfg.url : undefined;
}

export function isSignIn(err: unknown): boolean {
  return err instanceof MwsError && err.code === 'upstream_needs_sign_in';
}

/** The SDK's "the user must authorize" (anywhere in the causes): the OAuth flow reached a redirect. */
export function isUnauthorized(err: unknown): boolean {
  const sdk = loadedClientSdk();
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (sdk && e instanceof sdk.UnauthorizedError) return true;
  }
  return false;
}

/** A Streamable HTTP POST that an old HTTP+SSE server answers 400, 404 or 405. */
export function notStreamable(err: unknown): boolean {
  const sdk = loadedClientSdk();
  for (
    let e = err as { cause?: unknown; status?: unknown; data?: { status?: unknown } } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    const status = sdk && e instanceof sdk.SdkHttpError ? e.status : e.data?.status;
    if (status === 400 || status === 404 || status === 405) return true;
  }
  return false;
}

export function isStarting(err: unknown): boolean {
  return err instanceof MwsError && err.code === 'upstream_starting';
}

/** The upstream answered, and refused our credentials: access was revoked (or never granted). */
export function isRefused(err: unknown): boolean {
  // Before the SDK is loaded no SDK error can exist.
  const sdk = loadedClientSdk();
  if (sdk && err instanceof sdk.UnauthorizedError) return true;
  const status =
    sdk && err instanceof sdk.SdkHttpError ? err.status : (err as { data?: { status?: unknown }; cause?: unknown })?.data?.status;
  if (status === 401 || status === 403) return true;
  const cause = (err as { cause?: unknown })?.cause;
  return cause !== undefined && cause !== err && isRefused(cause);
}

export function isTransportFailure(err: unknown): boolean {
  const msg = errorMessage(err).toLowerCase();
  return /session|fetch failed|econnrefused|socket|closed|404/.test(msg);
}

export function withDeadline<T>(p: Promise<T>, ms: number, vendor: string, what: 'answer' | 'start' = 'answer'): Promise<T> {
  return within(p, ms, () =>
    what === 'start'
      ? new MwsError(
          'upstream_timeout',
          `Upstream "${vendor}" did not start within ${ms} ms. Check its command, or raise timeouts.connectMs.`,
          { vendor, ms },
        )
      : new MwsError('upstream_timeout', `Upstream "${vendor}" did not answer within ${ms} ms.`, { vendor, ms }),
  );
}

/** An HTTP upstream that answered 401/403 and offers no sign-in Working Set can use. */
export function refusedAccess(vendor: string, status: 401 | 403, err: unknown): MwsError {
  return new MwsError(
    'upstream_unavailable',
    `Upstream "${vendor}" refused access (HTTP ${status}) and offers no sign-in Working Set can use: ${errorMessage(err)}. Check its credentials.`,
    { vendor, status },
  );
}

/** The log line that says how a failed start (`caught`) is tried again. */
export function fallbackLine(vendor: string, next: Exclude<StartFallback, undefined | { kind: 'refused' }>, caught: unknown): string {
  switch (next.kind) {
    case 'no-issuer-check':
      return `upstream "${vendor}" is a 2025-03-26 server whose authorization server names another issuer on the same origin (${errorMessage(caught)}); signing in without the issuer check, as that revision did.`;
    case 'sse':
      return `upstream "${vendor}" did not take Streamable HTTP (${errorMessage(caught)}); trying the old HTTP+SSE transport.`;
    case 'modern':
      return `upstream "${vendor}" speaks only ${next.named.join(', ')}; connecting again in ${MODERN_REVISION}.`;
  }
}

/** What a failed start is tried again as, or why it is not. */
export type StartFallback =
  { kind: 'refused'; status: 401 | 403 } | { kind: 'no-issuer-check' } | { kind: 'sse' } | { kind: 'modern'; named: string[] } | undefined;

/**
 * A failed start (`caught` as the SDK raised it, `err` after the sign-in read it), and what to do next:
 * a 2025-03-26 server whose authorization server names another issuer on its origin is signed in
 * without the issuer check, as that revision did; a 401/403 with no sign-in to use is refused access;
 * Streamable HTTP refused at the door (400/404/405) is an old HTTP+SSE server, tried once that way;
 * a server that refused our 2025 opening and named 2026-07-28 is started again in it (once).
 */
export function startFallback(
  caught: unknown,
  err: unknown,
  s: { config: UpstreamConfig; issuerChecked: boolean; sse: boolean; pinnedEra: string | undefined; refusedWith: number | undefined },
): StartFallback {
  const url = cfgUrl(s.config);
  if (s.issuerChecked && url && legacyIssuer(caught, url)) return { kind: 'no-issuer-check' };
  if ((s.refusedWith === 401 || s.refusedWith === 403) && !isRefused(err)) return { kind: 'refused', status: s.refusedWith };
  if (s.config.kind === 'http' && (s.config.transport ?? 'auto') === 'auto' && !s.sse && notStreamable(caught)) return { kind: 'sse' };
  const named = supportedVersions(err);
  if (!s.pinnedEra && named.includes(MODERN_REVISION)) return { kind: 'modern', named };
  return undefined;
}

/** The status a failed start or list leaves an upstream in. */
export function failedStatus(err: unknown): UpstreamStatus {
  if (err instanceof MwsError && err.code === 'upstream_needs_value') return 'needs-value';
  if (isSignIn(err)) return 'needs-sign-in';
  return isRefused(err) ? 'revoked' : 'down';
}

const FAILED_WORDS: Partial<Record<UpstreamStatus, string>> = {
  revoked: 'access refused',
  'needs-value': 'needs a value',
  'needs-sign-in': 'needs sign-in',
};

/** The log view's line for it, in the window's words (as the log and the CLI say it), not the SDK's "fetch failed". */
export function failedLine(status: UpstreamStatus, error: string, config: UpstreamConfig): string {
  return `${FAILED_WORDS[status] ?? 'down'}: ${status === 'down' ? downSentence(error, config) : error}`;
}
