// One upstream's OAuth client, as the MCP SDK's `OAuthClientProvider`: the SDK runs the flow
// (discovery from the 401, registration, PKCE, resource indicators, scopes and step-up, refresh);
// this keeps what it saves in the OAuthStore and turns its "redirect the user" into a sign-in link
// that the loopback callback (http/oauthCallback.ts) completes. Hand-written here: only the
// storage, the refresh ahead of expiry (the SDK refreshes on a 401) and RFC 7009 revocation.
import { randomBytes } from 'node:crypto';
import type {
  FetchLike,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthUpstreamConfig } from '../../config/schema.js';
import type { Logger } from '../../log.js';
import { errorMessage, MwsError } from '../../errors.js';
import { openableUrl } from '../../../shared/openableUrl.js';
import { clientSdk } from '../clientSdk.js';
import type { SignInFlows } from './flows.js';
import type { OAuthRecord, OAuthStore, SavedTokens } from './store.js';

/** An access token this close to its expiry is refreshed before the request that would use it. */
export const REFRESH_AHEAD_MS = 60_000;
/** How long a revocation request may take at sign-out (the local sign-out happens regardless). */
const REVOKE_TIMEOUT_MS = 5_000;
/** Printable ASCII without spaces: what a bearer token may hold (RFC 6750 allows less; opaque tokens vary). */
const PRINTABLE_TOKEN = /^[\x21-\x7e]+$/;

export type UpstreamAuthOptions = {
  vendor: string;
  serverUrl: string;
  config: OAuthUpstreamConfig;
  store: OAuthStore;
  flows: SignInFlows;
  /** Working Set's own loopback callback, e.g. http://127.0.0.1:4484/oauth/callback. */
  redirectUrl: () => string;
  now: () => number;
  log: Logger;
  /** Told when a sign-in link is waiting for the user (the tray, a notification). */
  onSignInNeeded?: (vendor: string) => void;
};

/** Something that can redeem a callback's code: the SDK transport whose request started the flow. */
export type FinishesAuth = { finishAuth(params: URLSearchParams): Promise<void> };

export class UpstreamAuth implements OAuthClientProvider {
  private lastRedirect: URL | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private refreshing: Promise<void> | undefined;
  /**
   * A 2025-03-26 server (no protected-resource metadata: its origin stands in as the authorization
   * server) whose metadata names an issuer with a path on that same origin: the issuer echo check
   * (RFC 8414 §3.3, which that revision did not ask for) is skipped for it. Set by the connection.
   */
  skipIssuerCheck = false;

  constructor(private readonly opts: UpstreamAuthOptions) {}

  get vendor(): string {
    return this.opts.vendor;
  }

  // ── OAuthClientProvider ────────────────────────────────────────────────────────────────────────
  get redirectUrl(): string {
    return this.opts.redirectUrl();
  }

  get clientMetadataUrl(): string | undefined {
    return this.opts.config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Working Set',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.opts.config.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.opts.config.scope ? { scope: this.opts.config.scope } : {}),
    };
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const c = this.opts.config;
    if (c.clientId)
      return { client_id: c.clientId, ...(c.clientSecret ? { client_secret: c.clientSecret } : {}), redirect_uris: [this.redirectUrl] };
    const r = await this.record();
    // A registration made for another redirect URI (the port changed) would be refused at /authorize.
    if (!r?.client || r.client.redirectUri !== this.redirectUrl) return undefined;
    return r.client.info as OAuthClientInformationMixed;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.opts.config.clientId) return;
    await this.update((r) => (r.client = { info: info as Record<string, unknown>, redirectUri: this.redirectUrl }));
    this.knownClient = info.client_id;
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const t = (await this.record())?.tokens;
    if (!t) return undefined;
    const { expiresAt: _expiresAt, ...tokens } = t;
    return tokens as OAuthTokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // A token becomes an Authorization header: one holding a control character (ESC, BEL, a line
    // break) could not be sent and would reach the logs as it is. Refused before it is kept.
    for (const [what, t] of [
      ['access token', tokens.access_token],
      ['refresh token', tokens.refresh_token],
    ] as const)
      if (t !== undefined && (typeof t !== 'string' || !PRINTABLE_TOKEN.test(t)))
        throw new MwsError(
          'upstream_unavailable',
          `The sign-in server of "${this.opts.vendor}" sent an ${what} with characters a token cannot hold (controls or spaces), so it was not kept. Sign in again; if it repeats, the sign-in server is at fault.`,
          { vendor: this.opts.vendor },
        );
    const saved: SavedTokens = { ...(tokens as SavedTokens) };
    if (typeof tokens.expires_in === 'number') saved.expiresAt = this.opts.now() + tokens.expires_in * 1000;
    else delete saved.expiresAt;
    await this.update((r) => {
      // A refresh answer may leave the refresh token out: the one we had stays good (RFC 6749 §6).
      if (!saved.refresh_token && r.tokens?.refresh_token) saved.refresh_token = r.tokens.refresh_token;
      r.tokens = saved;
      r.account = accountOf(saved) ?? r.account;
      delete r.verifier;
      const client = r.client?.info as OAuthClientInformationMixed | undefined;
      if (client) this.knownClient = client.client_id;
    });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    // Nothing opens here: the connection that hit the 401 turns it into a sign-in link (captureFlow).
    // The sign-in server chose this URL: one that may not be opened never becomes a link at all.
    const checked = openableUrl(authorizationUrl.href);
    if (!checked.ok) {
      this.lastRedirect = undefined;
      const line = `The sign-in server of upstream "${this.opts.vendor}" named a sign-in link that Working Set will not open or show (${checked.reason.replace(/\.$/, '')}). Check the upstream's URL, or ask its operator to fix its authorization server metadata.`;
      this.opts.log.warn(line);
      throw new MwsError('upstream_unavailable', line, { vendor: this.opts.vendor });
    }
    this.lastRedirect = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update((r) => (r.verifier = codeVerifier));
  }

  async codeVerifier(): Promise<string> {
    const v = (await this.record())?.verifier;
    if (!v) throw new Error(`No sign-in to "${this.opts.vendor}" is under way; start it again.`);
    return v;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'discovery') return;
    await this.update((r) => {
      if (scope === 'all' || scope === 'tokens') delete r.tokens;
      if (scope === 'all' || scope === 'client') delete r.client;
      if (scope === 'all' || scope === 'verifier') delete r.verifier;
    });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  // ── Working Set's side ─────────────────────────────────────────────────────────────────────────

  /**
   * After a request failed as unauthorized: when the SDK asked to send the user to the authorization
   * server, that URL becomes the upstream's sign-in link, finished by `via` (the transport that asked).
   */
  captureFlow(via: FinishesAuth, onSignedIn: () => void): boolean {
    const url = this.lastRedirect;
    this.lastRedirect = undefined;
    const state = url?.searchParams.get('state');
    if (!url || !state) return false;
    this.opts.flows.register({
      vendor: this.opts.vendor,
      state,
      url: url.href,
      finish: async (params) => {
        await via.finishAuth(params);
        onSignedIn();
      },
    });
    this.opts.onSignInNeeded?.(this.opts.vendor);
    return true;
  }

  /** The sign-in link waiting for the user, if any. */
  pendingUrl(): string | undefined {
    return this.opts.flows.pending(this.opts.vendor)?.url;
  }

  /** The browser came back and the code is being redeemed for tokens. */
  redeeming(): boolean {
    return this.opts.flows.isRedeeming(this.opts.vendor);
  }

  /** `expiresAt`: when the access token stops being good (ms, our clock); `refreshable`: whether it renews itself then. */
  async signedIn(): Promise<{ signedIn: boolean; account: string | undefined; expiresAt?: number; refreshable?: boolean }> {
    const r = await this.record();
    const t = r?.tokens;
    return {
      signedIn: t !== undefined,
      account: r?.account,
      ...(t?.expiresAt !== undefined ? { expiresAt: t.expiresAt } : {}),
      ...(t ? { refreshable: t.refresh_token !== undefined } : {}),
    };
  }

  /**
   * Before a request to the server: an access token about to expire is refreshed now (through the
   * SDK's auth()), rather than spending a request on the 401 that would make the SDK refresh it.
   */
  async refreshIfExpiring(fetchFn: FetchLike): Promise<void> {
    const expiring = (t: SavedTokens | undefined) =>
      t?.refresh_token !== undefined && t.expiresAt !== undefined && t.expiresAt - this.opts.now() <= REFRESH_AHEAD_MS;
    if (!expiring((await this.record())?.tokens)) return;
    this.refreshing ??= this.alone(async () => {
      // Another replica may have refreshed while this one waited: its tokens are the ones to use, and
      // the refresh token this one read first may already be spent.
      if (!expiring((await this.record())?.tokens)) return;
      const { auth } = await clientSdk();
      const rm = this.discovery?.resourceMetadataUrl;
      await auth(this, {
        serverUrl: this.opts.serverUrl,
        fetchFn,
        skipIssuerMetadataValidation: this.skipIssuerCheck,
        ...(rm ? { resourceMetadataUrl: new URL(rm) } : {}),
      });
    })
      .catch((err: unknown) =>
        this.opts.log.warn(
          `upstream "${this.opts.vendor}": the token could not be refreshed ahead of expiry (${errorMessage(err)}); the server will be asked with the old one.`,
        ),
      )
      .finally(() => (this.refreshing = undefined));
    await this.refreshing;
  }

  /** Signs out: tokens revoked at the authorization server where it offers revocation (RFC 7009), then forgotten. */
  async signOut(fetchFn: FetchLike = fetch): Promise<{ revoked: boolean }> {
    const r = await this.record();
    this.opts.flows.cancel(this.opts.vendor);
    this.lastRedirect = undefined;
    let revoked = false;
    if (r?.tokens && !this.discovery) {
      // After a restart nothing was discovered yet: find the authorization server to revoke at.
      const { discoverOAuthServerInfo } = await clientSdk();
      this.discovery = await discoverOAuthServerInfo(this.opts.serverUrl, {
        fetchFn,
        skipIssuerMetadataValidation: this.skipIssuerCheck,
      }).catch(() => undefined);
    }
    const endpoint = (this.discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
    const client = await this.clientInformation().catch(() => undefined);
    if (r?.tokens && endpoint && client) {
      for (const [token, hint] of [
        [r.tokens.refresh_token, 'refresh_token'],
        [r.tokens.access_token, 'access_token'],
      ] as const) {
        if (!token) continue;
        try {
          const res = await fetchFn(endpoint, {
            method: 'POST',
            headers: revokeHeaders(client),
            body: revokeBody(client, token, hint),
            signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
          });
          revoked ||= res.ok;
        } catch (err) {
          this.opts.log.warn(
            `upstream "${this.opts.vendor}": revoking the token failed (${errorMessage(err)}); it is forgotten here anyway.`,
          );
        }
      }
    }
    // The registration goes too: one the server forgot would make every later sign-in fail.
    await this.update((rec) => {
      delete rec.tokens;
      delete rec.verifier;
      delete rec.account;
      delete rec.client;
    });
    return { revoked };
  }

  /** Forgets everything kept for this upstream (tokens, registration, discovery), without asking the server. */
  async reset(): Promise<void> {
    this.opts.flows.cancel(this.opts.vendor);
    this.lastRedirect = undefined;
    this.discovery = undefined;
    await this.opts.store.delete(this.opts.vendor);
  }

  /** The client ID the authorization server accepted in this process (registered, or a code redeemed with it). */
  private knownClient: string | undefined;
  /** The last sign-in link handed out after a probe decision. */
  private lastLink: string | undefined;

  /** Drops a registration the authorization server no longer knows, and the sign-in link made with it. */
  async forgetClient(): Promise<void> {
    this.opts.flows.cancel(this.opts.vendor);
    this.lastRedirect = undefined;
    await this.update((rec) => {
      delete rec.client;
      delete rec.verifier;
    });
  }

  /**
   * Whether the authorization server still takes the registration a sign-in link carries. Per RFC
   * 6749 §4.1.2.1 it answers an unknown client (or redirect URI) itself instead of redirecting back,
   * which a browser shows as a dead end: that answer, or a redirect naming invalid_client, is "refused".
   * A configured client ID is the user's to fix, so only a registration of ours is checked.
   */
  async linkRefused(link: string, fetchFn: FetchLike = fetch): Promise<boolean> {
    const client = (await this.record())?.client?.info as OAuthClientInformationMixed | undefined;
    if (this.opts.config.clientId || !client) return false;
    // The probe is itself an authorization request, so it is spent only where a forgotten registration
    // is likely: one this process has not seen the server accept (saved by an earlier run), or a link
    // asked for again while unredeemed (the browser may have shown the server's dead end).
    const again = this.lastLink === link;
    this.lastLink = link;
    if (!again && this.knownClient === client.client_id) return false;
    try {
      const res = await fetchFn(link, { redirect: 'manual', signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS) });
      await res.body?.cancel().catch(() => {});
      if (res.status >= 400 && res.status < 500) return true;
      const to = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      const error = to ? new URL(to, link).searchParams.get('error') : null;
      return error === 'invalid_client' || error === 'unauthorized_client';
    } catch {
      // Unreachable or slow: the link is offered as it is, the browser will say what is wrong.
      return false;
    }
  }

  /**
   * A refresh-token grant on its way to the token endpoint (the SDK refreshes on its own after a 401):
   * sent as the only refresh of this upstream among the processes sharing the store, and its answer
   * kept before the next one looks. When the refresh token it carries is no longer the stored one,
   * another process spent it already: it is not sent, and the answer is the tokens that process kept.
   */
  async refreshGrant(sent: string, send: () => Promise<Response>): Promise<Response> {
    return this.alone(async () => {
      const t = (await this.record())?.tokens;
      if (t?.refresh_token && t.refresh_token !== sent) return storedAnswer(t, this.opts.now());
      const res = await send();
      if (res.ok) {
        const body = (await res
          .clone()
          .json()
          .catch(() => undefined)) as OAuthTokens | undefined;
        if (typeof body?.access_token === 'string') await this.saveTokens({ refresh_token: sent, ...body });
      }
      return res;
    });
  }

  /** Runs `fn` as the only refresher of this upstream among the processes sharing the store. */
  private alone<T>(fn: () => Promise<T>): Promise<T> {
    const store = this.opts.store;
    return store.exclusive ? store.exclusive(this.opts.vendor, fn) : fn();
  }

  private async record(): Promise<OAuthRecord | undefined> {
    const r = await this.opts.store.get(this.opts.vendor);
    // Kept for another URL (the upstream was edited): not ours to send there.
    return r?.serverUrl === this.opts.serverUrl ? r : undefined;
  }

  private async update(change: (r: OAuthRecord) => void): Promise<void> {
    const r = (await this.record()) ?? { serverUrl: this.opts.serverUrl };
    change(r);
    await this.opts.store.set(this.opts.vendor, r);
  }
}

function revokeHeaders(client: OAuthClientInformationMixed): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client.client_secret)
    h.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
  return h;
}

function revokeBody(client: OAuthClientInformationMixed, token: string, hint: string): URLSearchParams {
  const p = new URLSearchParams({ token, token_type_hint: hint });
  if (!client.client_secret) p.set('client_id', client.client_id);
  return p;
}

/** Tokens another process kept, as a token endpoint answers them (expires_in from the time left). */
function storedAnswer(t: SavedTokens, now: number): Response {
  const { expiresAt, ...tokens } = t;
  const body: Record<string, unknown> = { ...tokens };
  if (expiresAt !== undefined) body.expires_in = Math.max(0, Math.floor((expiresAt - now) / 1000));
  else delete body.expires_in;
  return Response.json(body);
}

/** Who signed in, for "Signed in as …": an id_token's email or name (display only, never trusted). */
function accountOf(t: SavedTokens): string | undefined {
  if (!t.id_token) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(t.id_token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const v = payload.email ?? payload.preferred_username ?? payload.name ?? payload.sub;
    return typeof v === 'string' ? v.slice(0, 120) : undefined;
  } catch {
    return undefined;
  }
}
