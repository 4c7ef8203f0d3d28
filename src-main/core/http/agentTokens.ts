// Access tokens from a team's authorization server, checked for an agent endpoint: as JWTs against the
// issuer's published keys (jose: signature, iss, aud, exp/nbf), or as opaque tokens by introspection
// (RFC 7662). Every read from the issuer is bounded in bytes and time, keys are refetched on an unknown
// `kid` at most once per cooldown, and each refusal is a sentence.
import { createHash } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { errorMessage } from '../errors.js';
import type { AgentConfig } from '../config/schema.js';

type AgentAuth = NonNullable<AgentConfig['auth']>;

/** Issuer metadata and key sets are small; a larger answer is refused before it is held. */
const MAX_ISSUER_BYTES = 1024 * 1024;
const ISSUER_TIMEOUT_MS = 5_000;
/** An unknown `kid` refetches the keys at most this often, so a flood of made-up kids costs one fetch. */
const KEYS_COOLDOWN_MS = 30_000;
const KEYS_MAX_AGE_MS = 10 * 60_000;
/** Clocks of the issuer and this host may differ by this much. */
const CLOCK_SKEW_S = 60;
/** Only asymmetric algorithms: a key set is public, so an HMAC "signed" with it proves nothing. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** How long an introspection answer is reused for the same token. */
const INTROSPECTION_CACHE_MS = 30_000;

export type TokenVerdict = { ok: true; subject: string | undefined } | { ok: false; status: 401 | 403 | 503; message: string };

type Fetch = typeof fetch;

/** Reads a body up to `max` bytes; past it the read is cancelled and the request refused. */
async function boundedBody(res: Response, max: number, what: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => {});
    throw new Error(`${what} is larger than ${max / 1024} KB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > max) {
        await res.body.cancel().catch(() => {});
        throw new Error(`${what} is larger than ${max / 1024} KB`);
      }
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

async function fetchJson(fetchFn: Fetch, url: string, what: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetchFn(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(ISSUER_TIMEOUT_MS) });
  const body = await boundedBody(res, MAX_ISSUER_BYTES, what);
  if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}`);
  const parsed: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${what} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

/** The issuer's metadata: OpenID discovery first, then RFC 8414 (path inserted after the well-known prefix). */
async function issuerMetadata(fetchFn: Fetch, issuer: string): Promise<Record<string, unknown>> {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  const tries = [`${u.origin}${path}/.well-known/openid-configuration`, `${u.origin}/.well-known/oauth-authorization-server${path}`];
  let last: unknown;
  for (const url of tries) {
    try {
      const doc = await fetchJson(fetchFn, url, `the metadata of ${u.origin}`);
      if (doc.issuer !== issuer && doc.issuer !== issuer.replace(/\/$/, ''))
        throw new Error(`its metadata names another issuer (${String(doc.issuer).slice(0, 200)})`);
      return doc;
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}

function claimHolds(payload: Record<string, unknown>, claim: string, values: string[] | undefined): boolean {
  const held = payload[claim];
  if (held === undefined || held === null) return false;
  if (!values?.length) return true;
  const list = Array.isArray(held) ? held : typeof held === 'string' ? held.split(' ') : [held];
  return list.some((v: unknown) => typeof v === 'string' && values.includes(v));
}

/** The sentence for a token jose refused. */
function refusal(err: unknown, issuer: string, audience: string): TokenVerdict {
  const bad = (why: string): TokenVerdict => ({ ok: false, status: 401, message: `The access token was refused: ${why}` });
  if (err instanceof errors.JWTExpired) return bad('it has expired. Sign in again to get a new one.');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud')
      return bad(`it is for another resource, not ${audience}. Ask the authorization server for a token for this endpoint.`);
    if (err.claim === 'iss') return bad(`it was issued by another server, not ${issuer}.`);
    if (err.claim === 'nbf') return bad('it is not valid yet (check the clocks of this host and the authorization server).');
    return bad(`its "${err.claim}" claim is not acceptable (${err.reason}).`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported)
    return bad("it is signed with an algorithm this endpoint does not accept (only the issuer's public-key algorithms are).");
  if (err instanceof errors.JWKSNoMatchingKey) return bad(`it is signed with a key ${issuer} does not publish.`);
  if (err instanceof errors.JWSSignatureVerificationFailed) return bad("its signature does not verify with the issuer's keys.");
  if (err instanceof errors.JWKSTimeout)
    return {
      ok: false,
      status: 503,
      message: `The keys of ${issuer} could not be fetched in time, so the token could not be checked. Try again shortly.`,
    };
  if (err instanceof errors.JWTInvalid || err instanceof errors.JWSInvalid) return bad('it is not a signed JWT this endpoint can read.');
  return {
    ok: false,
    status: 503,
    message: `The token could not be checked against ${issuer}: ${errorMessage(err).slice(0, 200)}. Try again shortly.`,
  };
}

/** One per app: each issuer's keys (and each introspection answer) are shared by the agents that use it. */
export class AgentTokens {
  private readonly keySets = new Map<string, Promise<ReturnType<typeof createRemoteJWKSet>>>();
  private readonly introspected = new LRUCache<string, { payload: Record<string, unknown>; until: number }>({ max: 10_000 });

  constructor(
    private readonly fetchFn: Fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks a bearer token for the agent whose endpoint is `resource`. */
  async verify(token: string, auth: AgentAuth, resource: string): Promise<TokenVerdict> {
    const checked = await this.claims(token, { ...auth, audience: auth.audience ?? resource });
    if (!checked.ok) return checked;
    const payload = checked.payload;
    if (auth.claim && !claimHolds(payload, auth.claim, auth.values))
      return {
        ok: false,
        status: 403,
        message: `The access token is good, but its "${auth.claim}" claim does not hold ${auth.values?.length ? `one of ${auth.values.map((v) => `"${v}"`).join(', ')}` : 'a value'}, which this agent asks for. Ask an administrator for access.`,
      };
    return { ok: true, subject: typeof payload.sub === 'string' ? payload.sub : undefined };
  }

  /** The claims of a token the issuer signed for `audience` (or its introspection endpoint vouches for), or why not. */
  async claims(
    token: string,
    opts: { issuer: string; audience: string; introspection?: AgentAuth['introspection'] },
  ): Promise<{ ok: true; payload: Record<string, unknown> } | Extract<TokenVerdict, { ok: false }>> {
    const { issuer, audience } = opts;
    if (opts.introspection) {
      const checked = await this.introspect(token, { issuer, introspection: opts.introspection }, audience);
      return checked.ok ? checked : (checked.verdict as Extract<TokenVerdict, { ok: false }>);
    }
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await this.keysOf(issuer);
    } catch (err) {
      return {
        ok: false,
        status: 503,
        message: `The authorization server ${issuer} could not be reached to check the token (${errorMessage(err).slice(0, 200)}). Try again shortly.`,
      };
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_S,
        currentDate: new Date(this.now()),
        requiredClaims: ['exp'],
      });
      return { ok: true, payload: payload as JWTPayload & Record<string, unknown> };
    } catch (err) {
      return refusal(err, issuer, audience) as Extract<TokenVerdict, { ok: false }>;
    }
  }

  private keysOf(issuer: string): Promise<ReturnType<typeof createRemoteJWKSet>> {
    let keys = this.keySets.get(issuer);
    if (!keys) {
      keys = issuerMetadata(this.fetchFn, issuer).then((meta) => {
        if (typeof meta.jwks_uri !== 'string') throw new Error('its metadata names no jwks_uri');
        const jwksUri = new URL(meta.jwks_uri);
        return createRemoteJWKSet(jwksUri, {
          timeoutDuration: ISSUER_TIMEOUT_MS,
          cooldownDuration: KEYS_COOLDOWN_MS,
          cacheMaxAge: KEYS_MAX_AGE_MS,
          [customFetch]: async (url, init) => {
            const res = await this.fetchFn(url, { ...init, redirect: 'error' });
            const body = await boundedBody(res, MAX_ISSUER_BYTES, `the key set of ${issuer}`);
            return new Response(Buffer.from(body), { status: res.status, headers: res.headers });
          },
        });
      });
      this.keySets.set(issuer, keys);
      // A failed discovery is tried again by the next request, not cached.
      keys.catch(() => this.keySets.delete(issuer));
    }
    return keys;
  }

  private async introspect(
    token: string,
    auth: { issuer: string; introspection: NonNullable<AgentAuth['introspection']> },
    audience: string,
  ): Promise<{ ok: true; payload: Record<string, unknown> } | { ok: false; verdict: TokenVerdict }> {
    const intro = auth.introspection;
    const key = createHash('sha256').update(`${intro.url}\n${token}`).digest('base64url');
    const cached = this.introspected.get(key);
    let payload = cached && cached.until > this.now() ? cached.payload : undefined;
    if (!payload) {
      try {
        payload = await fetchJson(this.fetchFn, intro.url, `the introspection endpoint ${new URL(intro.url).origin}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${encodeURIComponent(intro.clientId)}:${encodeURIComponent(intro.clientSecret)}`).toString('base64')}`,
          },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        });
      } catch (err) {
        return {
          ok: false,
          verdict: {
            ok: false,
            status: 503,
            message: `The token could not be checked: ${errorMessage(err).slice(0, 200)}. Try again shortly.`,
          },
        };
      }
      this.introspected.set(key, { payload, until: this.now() + INTROSPECTION_CACHE_MS });
    }
    const bad = (why: string) => ({
      ok: false as const,
      verdict: { ok: false as const, status: 401 as const, message: `The access token was refused: ${why}` },
    });
    if (payload.active !== true) return bad('the authorization server says it is not active (expired or revoked). Sign in again.');
    if (typeof payload.exp === 'number' && payload.exp * 1000 + CLOCK_SKEW_S * 1000 < this.now())
      return bad('it has expired. Sign in again.');
    if (payload.iss !== undefined && payload.iss !== auth.issuer) return bad(`it was issued by another server, not ${auth.issuer}.`);
    const aud = payload.aud;
    if (aud !== undefined && !(Array.isArray(aud) ? aud.includes(audience) : aud === audience))
      return bad(`it is for another resource, not ${audience}.`);
    return { ok: true, payload };
  }
}
