// Signing a person in to a remote Working Set by the device flow (RFC 8628), for the CLI (`mws login
// --operator`) and the desktop app's console: where to sign in is read from the instance's own /control
// metadata (RFC 9728: the provider, the audience, the public client), the person confirms a link and a
// code in any browser, and the tokens are checked with the instance itself, then kept (logins.ts).
import { MwsError } from '../errors.js';
import { CONTROL_METADATA_PATH } from './controlMetadata.js';
import { httpControlClient } from '../control/transport/httpClient.js';
import { openableUrl } from '../../shared/openableUrl.js';
import type * as oidc from 'openid-client';
import { describe, discoverProvider, openidClient } from './provider.js';
import { expiresAtOf, saveLogin, type OperatorLogin } from './logins.js';

const METADATA_MS = 15_000;

type ControlMetadata = { resource: string; issuer: string; clientId: string; scope: string };

/** Where and how `url` signs its operators in, from its /control metadata. */
async function controlMetadata(url: string): Promise<ControlMetadata> {
  const where = `${new URL(url).origin}${CONTROL_METADATA_PATH}`;
  let res: Response;
  try {
    res = await fetch(where, { signal: AbortSignal.timeout(METADATA_MS), redirect: 'error' });
  } catch (err) {
    throw new MwsError('instance_unreachable', `${url} did not answer (${describe(err)}). Check the address and that the instance runs.`, {
      url,
    });
  }
  if (res.status === 404)
    throw new MwsError(
      'sign_in_failed',
      `${url} does not sign operators in through an identity provider (its config has no "operators"). Use its control token, or ask its admin.`,
      { url },
    );
  const doc = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const issuer = Array.isArray(doc?.authorization_servers) ? doc.authorization_servers[0] : undefined;
  if (!res.ok || typeof doc?.resource !== 'string' || typeof issuer !== 'string')
    throw new MwsError('sign_in_failed', `${where} is not a protected-resource metadata document (HTTP ${res.status}).`, { url });
  if (typeof doc.mws_cli_client_id !== 'string')
    throw new MwsError(
      'sign_in_failed',
      `${url} names no client for the CLI to sign in with. Ask its admin to register one with the device grant and set "operators.cli.clientId".`,
      { url },
    );
  const scopes = Array.isArray(doc.scopes_supported) ? doc.scopes_supported.filter((s): s is string => typeof s === 'string') : ['openid'];
  return { resource: doc.resource, issuer, clientId: doc.mws_cli_client_id, scope: [...new Set([...scopes, 'offline_access'])].join(' ') };
}

export type DeviceSignInHooks = {
  /** The link to open (checked: https, or http to loopback) and the code it must show. */
  onLink: (link: string, userCode: string, waitMs: number) => void | Promise<void>;
  /** The longest to wait for the person (the provider's own limit may be shorter). */
  waitMs: number;
  /** What the person does after a sign-in that did not complete (default: "Sign in again."). */
  again?: string;
};

/** Signs in to the instance at `url` (see instanceUrl) and keeps the sign-in in `stateDir`; answers it. */
export async function deviceSignIn(stateDir: string, url: string, hooks: DeviceSignInHooks): Promise<OperatorLogin> {
  const meta = await controlMetadata(url);
  const provider = await discoverProvider(meta.issuer, { clientId: meta.clientId });
  if (!provider.serverMetadata().device_authorization_endpoint)
    throw new MwsError(
      'sign_in_failed',
      `The identity provider ${meta.issuer} offers no device sign-in, which this uses. Sign in through the window instead.`,
    );
  let started: oidc.DeviceAuthorizationResponse;
  try {
    started = await (await openidClient()).initiateDeviceAuthorization(provider, { scope: meta.scope, resource: meta.resource });
  } catch (err) {
    throw new MwsError('sign_in_failed', `The identity provider refused to start the sign-in (${describe(err)}).`, { url });
  }
  const link = openableUrl(started.verification_uri_complete ?? started.verification_uri);
  if (!link.ok) throw new MwsError('sign_in_failed', `The identity provider's sign-in link was not shown: ${link.reason}`, { url });
  const waitMs = Math.min(hooks.waitMs, started.expires_in * 1000);
  await hooks.onLink(link.url, started.user_code, waitMs);
  let tokens: oidc.TokenEndpointResponse;
  try {
    tokens = await (
      await openidClient()
    ).pollDeviceAuthorizationGrant(provider, started, { resource: meta.resource }, { signal: AbortSignal.timeout(waitMs) });
  } catch (err) {
    const e = err as { error?: string; name?: string };
    const why =
      e.error === 'access_denied'
        ? 'it was refused in the browser'
        : e.error === 'expired_token' || e.name === 'TimeoutError'
          ? 'the code expired before it was confirmed'
          : describe(err);
    throw new MwsError('sign_in_failed', `The sign-in to ${url} did not complete: ${why}. ${hooks.again ?? 'Sign in again.'}`, { url });
  }
  // The instance itself says who this is and with which role; a token it refuses is not kept.
  const who = (await httpControlClient(url, tokens.access_token, METADATA_MS).status({})).operator;
  const login: OperatorLogin = {
    url,
    issuer: meta.issuer,
    clientId: meta.clientId,
    resource: meta.resource,
    accessToken: tokens.access_token,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    expiresAt: expiresAtOf(tokens.expires_in),
    ...(who ? { name: who.name, role: who.role } : {}),
  };
  await saveLogin(stateDir, login);
  return login;
}
