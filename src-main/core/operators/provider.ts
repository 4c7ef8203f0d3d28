// The team's identity provider as an OAuth client sees it, through openid-client (panva's certified
// relying party, on oauth4webapi and jose): discovery, the authorization code with PKCE (the window),
// the device flow and refresh (`mws login --operator`). Plain http is allowed only to a loopback
// provider, as the config's issuer check allows it; everything else must be https.
import type * as oidc from 'openid-client';
import { isLoopbackHost } from '../config/configSchema.js';
import { MwsError } from '../errors.js';

let loading: Promise<typeof oidc> | undefined;

/**
 * openid-client (with oauth4webapi and jose), loaded at the first sign-in: most instances never sign
 * anyone in, and `mws serve` listens sooner without it.
 */
export function openidClient(): Promise<typeof oidc> {
  return (loading ??= import('openid-client'));
}

/** How long a call to the provider may take, in seconds (openid-client's unit). */
const TIMEOUT_S = 15;

export type ProviderClient = { clientId: string; clientSecret?: string | undefined };

/** A provider's metadata is read again after this long; until then every sign-in reuses it. */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/**
 * The provider's metadata, discovered from its issuer URL, bound to one client. Kept for a while:
 * anyone may open /ui/_signin, and each opening must not cost the provider a request.
 */
export function discoverProvider(issuer: string, client: ProviderClient, now = Date.now()): Promise<oidc.Configuration> {
  const key = JSON.stringify([issuer, client.clientId, client.clientSecret ?? null]);
  const kept = discovered.get(key);
  if (kept && now - kept.at < DISCOVERY_TTL_MS) return kept.config;
  const config = discover(issuer, client);
  discovered.set(key, { at: now, config });
  // A failure is not kept: the next sign-in tries again.
  config.catch(() => discovered.get(key)?.config === config && discovered.delete(key));
  if (discovered.size > 16) discovered.delete(discovered.keys().next().value!);
  return config;
}

async function discover(issuer: string, client: ProviderClient): Promise<oidc.Configuration> {
  const url = new URL(issuer);
  const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  const o = await openidClient();
  const auth = client.clientSecret ? o.ClientSecretPost(client.clientSecret) : o.None();
  try {
    return await o.discovery(url, client.clientId, undefined, auth, {
      timeout: TIMEOUT_S,
      ...(insecure ? { execute: [o.allowInsecureRequests] } : {}),
    });
  } catch (err) {
    throw new MwsError(
      'upstream_unavailable',
      `The identity provider ${issuer} could not be read (${describe(err)}). Check the config's "operators.issuer" and that the provider is reachable from here.`,
      { issuer },
    );
  }
}

/** One line from what openid-client threw: the provider's own error and description when it sent one. */
export function describe(err: unknown): string {
  const e = err as { error?: unknown; error_description?: unknown; message?: unknown; cause?: { message?: unknown } };
  if (typeof e.error === 'string')
    return `${e.error}${typeof e.error_description === 'string' ? `: ${e.error_description}` : ''}`.slice(0, 300);
  const msg = typeof e.message === 'string' ? e.message : String(err);
  const cause = typeof e.cause?.message === 'string' ? ` (${e.cause.message})` : '';
  return `${msg}${cause}`.slice(0, 300);
}
