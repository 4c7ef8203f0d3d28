// When a 2025-03-26 server's authorization server may skip the issuer echo check: the one decision
// of the 2025-03-26 fallback that the SDK (which validates RFC 8414 §3.3 strictly) leaves to us.
import { loadedClientSdk } from '../clientSdk.js';

/**
 * The SDK refused an authorization server's metadata because its issuer differs from the server's own
 * origin, which stood in as the authorization server (no RFC 9728 metadata: the 2025-03-26 fallback),
 * while naming a path on that same origin. Another origin is never let through.
 */
export function legacyIssuer(err: unknown, serverUrl: string): boolean {
  const sdk = loadedClientSdk();
  const origin = new URL(serverUrl).origin;
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (!sdk || !(e instanceof sdk.IssuerMismatchError) || e.kind !== 'metadata') continue;
    try {
      return (
        (e.expected === origin || e.expected === `${origin}/`) && typeof e.received === 'string' && new URL(e.received).origin === origin
      );
    } catch {
      return false;
    }
  }
  return false;
}
