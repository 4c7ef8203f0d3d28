// The team's identity provider as an OAuth client sees it, through openid-client (panva's certified
// relying party, on oauth4webapi and jose): discovery, the authorization code with PKCE (the window),
// the device flow and refresh (`mws login --operator`). Plain http is allowed only to a loopback
// provider, as the config's issuer check allows it; everything else must be https.
import * as oidc from 'openid-client';
import { isLoopbackHost } from '../config/configSchema.js';
import { MwsError } from '../errors.js';

/** How long a call to the provider may take, in seconds (openid-client's unit). */
const TIMEOUT_S = 15;

export type ProviderClient = { clientId: string; clientSecret?: string | undefined };

/** The provider's metadata, discovered from its issuer URL, bound to one client. */
export async function discoverProvider(issuer: string, client: ProviderClient): Promise<oidc.Configuration> {
  const url = new URL(issuer);
  const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  const auth = client.clientSecret ? oidc.ClientSecretPost(client.clientSecret) : oidc.None();
  try {
    return await oidc.discovery(url, client.clientId, undefined, auth, {
      timeout: TIMEOUT_S,
      ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
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

export { oidc };
