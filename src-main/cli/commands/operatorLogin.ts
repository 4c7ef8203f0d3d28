// `mws login --operator URL` and `mws logout --operator URL`: a person signs the CLI in to a remote
// Working Set through the team's identity provider, by the device flow (RFC 8628): the CLI prints a
// link and a code, the person confirms them in any browser (on another machine if this one has none),
// and the CLI keeps the tokens (cli/operatorLogins.ts). Where to sign in is read from the instance's
// own /control metadata (RFC 9728): the provider, the audience and the CLI's public client.
import { MwsError } from '../../core/errors.js';
import { CONTROL_METADATA_PATH } from '../../core/http/protectedResource.js';
import { httpControlClient } from '../../core/control/transport/http.js';
import { describe, discoverProvider, oidc } from '../../core/operators/provider.js';
import { openableUrl } from '../../shared/openableUrl.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { expiresAtOf, forgetLogin, instanceUrl, saveLogin } from '../operatorLogins.js';
import type { Io } from '../output.js';
import { hasBrowser, LOGIN_WAIT_MS, openBrowser } from './login.js';

const METADATA_MS = 15_000;

export type OperatorLoginFlags = ConfigFlags & { url: string; browser: boolean; waitMs?: number };

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

export async function runOperatorLogin(io: Io, f: OperatorLoginFlags): Promise<number> {
  const url = instanceUrl(f.url);
  const { config } = await cliConfig(f);
  const meta = await controlMetadata(url);
  const provider = await discoverProvider(meta.issuer, { clientId: meta.clientId });
  if (!provider.serverMetadata().device_authorization_endpoint)
    throw new MwsError(
      'sign_in_failed',
      `The identity provider ${meta.issuer} offers no device sign-in, which \`mws login --operator\` uses. Sign in through the window instead.`,
    );
  let started: oidc.DeviceAuthorizationResponse;
  try {
    started = await oidc.initiateDeviceAuthorization(provider, { scope: meta.scope, resource: meta.resource });
  } catch (err) {
    throw new MwsError('sign_in_failed', `The identity provider refused to start the sign-in (${describe(err)}).`, { url });
  }
  const link = openableUrl(started.verification_uri_complete ?? started.verification_uri);
  if (!link.ok) throw new MwsError('sign_in_failed', `The identity provider's sign-in link was not shown: ${link.reason}`, { url });
  io.out(`Sign in to ${url} in a browser (any device):\n\n  ${link.url}\n\nand check that it shows the code ${started.user_code}.\n`);
  if (f.browser && hasBrowser()) await openBrowser(link.url, io);
  const waitMs = Math.min(f.waitMs ?? LOGIN_WAIT_MS, started.expires_in * 1000);
  io.out(`Waiting for the sign-in (up to ${Math.max(1, Math.round(waitMs / 60_000))} min; Ctrl-C to give up)…`);
  let tokens: oidc.TokenEndpointResponse;
  try {
    tokens = await oidc.pollDeviceAuthorizationGrant(
      provider,
      started,
      { resource: meta.resource },
      { signal: AbortSignal.timeout(waitMs) },
    );
  } catch (err) {
    const e = err as { error?: string; name?: string };
    const why =
      e.error === 'access_denied'
        ? 'it was refused in the browser'
        : e.error === 'expired_token' || e.name === 'TimeoutError'
          ? 'the code expired before it was confirmed'
          : describe(err);
    throw new MwsError('sign_in_failed', `The sign-in to ${url} did not complete: ${why}. Run \`mws login --operator ${url}\` again.`, {
      url,
    });
  }
  // The instance itself says who this is and with which role; a token it refuses is not kept.
  const status = await httpControlClient(url, tokens.access_token, METADATA_MS).status({});
  const who = status.operator;
  await saveLogin(config.stateDir, {
    url,
    issuer: meta.issuer,
    clientId: meta.clientId,
    resource: meta.resource,
    accessToken: tokens.access_token,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    expiresAt: expiresAtOf(tokens.expires_in),
    ...(who ? { name: who.name, role: who.role } : {}),
  });
  io.out(
    `Signed in to ${url}${who ? ` as ${who.name} (${who.role})` : ''}. Commands reach it with MWS_REMOTE set, e.g. \`MWS_REMOTE=${url} mws status\`.`,
  );
  return 0;
}

export async function runOperatorLogout(io: Io, f: ConfigFlags & { url: string }): Promise<number> {
  const url = instanceUrl(f.url);
  const { config } = await cliConfig(f);
  const gone = await forgetLogin(config.stateDir, url);
  if (!gone) return (io.out(`Not signed in to ${url}; nothing to do.`), 0);
  // The refresh token is revoked at the provider when it can be; the sign-in is forgotten either way.
  let revoked = false;
  if (gone.refreshToken) {
    try {
      const provider = await discoverProvider(gone.issuer, { clientId: gone.clientId });
      if (provider.serverMetadata().revocation_endpoint) {
        await oidc.tokenRevocation(provider, gone.refreshToken, { token_type_hint: 'refresh_token' });
        revoked = true;
      }
    } catch {
      // Unreachable or refusing provider: the token is forgotten here and expires there.
    }
  }
  io.out(`Signed out of ${url}${revoked ? '; the identity provider revoked the sign-in' : ''}.`);
  return 0;
}
