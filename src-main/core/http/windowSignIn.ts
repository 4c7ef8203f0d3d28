// People sign in to the window through the team's identity provider: the instance is the OAuth client
// (authorization code with PKCE, openid-client), so no token ever reaches the browser. GET /ui/_signin
// sends the browser to the provider with a fresh state and code challenge; GET /ui/_signin/callback
// takes the code back, spends it with the verifier, checks the access token as /control checks any
// operator's (issuer, audience, role), and opens a window session with that person's role until their
// token ends. The state is bound to the browser that started (a Lax cookie, sent on the provider's
// redirect back), so a code forged into someone else's browser signs no one in.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBytes } from 'node:crypto';
import type { OperatorVerdict } from '../control/transport/http.js';
import type { Config } from '../config/schema.js';
import type * as oidc from 'openid-client';
import { describe, discoverProvider, openidClient } from '../operators/provider.js';
import { tokenMatches } from '../store/controlToken.js';
import { setSessionCookie } from './cookies.js';
import { signInAnswer } from './signInPage.js';
import { CSRF_FRAGMENT, type UiSessions } from './uiSessions.js';

export const SIGN_IN_PATH = '/ui/_signin';
export const SIGN_IN_CALLBACK_PATH = '/ui/_signin/callback';
/** A sign-in started is good this long (the person may have to type a password and a second factor). */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;

/**
 * A sign-in under way lives in the starting browser's cookie (state, PKCE verifier, start time), not in
 * the instance: strangers opening /ui/_signin cannot push a person's sign-in out of a table.
 */
function packed(state: string, verifier: string, started: number): string {
  return `${state}.${verifier}.${started}`;
}
function unpacked(cookie: string | undefined): { state: string; verifier: string; started: number } | undefined {
  const m = /^([\w-]{16,128})\.([\w-]{43,128})\.(\d{1,16})$/.exec(cookie ?? '');
  return m ? { state: m[1]!, verifier: m[2]!, started: Number(m[3]) } : undefined;
}

export type WindowSignInDeps = {
  operators: () => Config['operators'];
  sessions: UiSessions;
  /** The access token judged as /control judges an operator's bearer token. */
  check: (accessToken: string, origin: string) => Promise<OperatorVerdict>;
  /** Behind a TLS proxy: the origin the provider redirects back to (else the request's own). */
  publicOrigin?: string;
  secure: boolean;
  now: () => number;
};

export type WindowSignIn = {
  /** Whether the window offers this sign-in (the config names a window client). */
  offered: () => boolean;
  start: (c: Context) => Promise<Response>;
  callback: (c: Context) => Promise<Response>;
};

/** The cookie that binds a sign-in to the browser that started it; per port, as the session cookie is. */
function stateCookie(c: Context): string {
  return `mws_signin_${new URL(c.req.url).port || '80'}`;
}

/** A page answered through the context, so the cookies set on it (the session, the state's removal) go out with it. */
async function through(c: Context, page: Response): Promise<Response> {
  return c.body(await page.text(), page.status as 200, Object.fromEntries(page.headers));
}

export function windowSignIn(d: WindowSignInDeps): WindowSignIn {
  const client = () => d.operators()?.window;
  const originOf = (c: Context) => d.publicOrigin ?? new URL(c.req.url).origin;
  const refuse = (c: Context, status: number, sentence: string) =>
    through(c, signInAnswer({ status, title: 'Signing in did not work', sentence, retry: true }));
  const notOffered = (c: Context) =>
    refuse(c, 404, 'This instance does not sign people in through an identity provider; open the window through a one-time link.');

  return {
    offered: () => client() !== undefined,

    async start(c) {
      const ops = d.operators();
      if (!ops?.window) return notOffered(c);
      const origin = originOf(c);
      let provider: oidc.Configuration;
      try {
        provider = await discoverProvider(ops.issuer, ops.window);
      } catch (err) {
        return refuse(c, 502, (err as Error).message);
      }
      const o = await openidClient();
      const verifier = o.randomPKCECodeVerifier();
      const state = randomBytes(24).toString('base64url');
      setCookie(c, stateCookie(c), packed(state, verifier, d.now()), {
        httpOnly: true,
        sameSite: 'Lax',
        path: SIGN_IN_PATH,
        maxAge: SIGN_IN_TTL_MS / 1000,
        ...(d.secure ? { secure: true } : {}),
      });
      const to = o.buildAuthorizationUrl(provider, {
        redirect_uri: `${origin}${SIGN_IN_CALLBACK_PATH}`,
        scope: ops.scope ?? 'openid',
        code_challenge: await o.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        resource: ops.audience ?? `${origin}/control`,
      });
      c.header('cache-control', 'no-store');
      c.header('referrer-policy', 'no-referrer');
      return c.redirect(to.href, 303);
    },

    async callback(c) {
      const ops = d.operators();
      if (!ops?.window) return notOffered(c);
      const state = c.req.query('state');
      const bound = unpacked(getCookie(c, stateCookie(c)));
      deleteCookie(c, stateCookie(c), { path: SIGN_IN_PATH, ...(d.secure ? { secure: true } : {}) });
      if (!state || !bound || !tokenMatches(state, bound.state))
        return refuse(
          c,
          400,
          'This sign-in was not started in this browser (or its cookie was lost), so it was not accepted. Start again.',
        );
      if (d.now() - bound.started > SIGN_IN_TTL_MS || bound.started > d.now())
        return refuse(c, 400, 'This sign-in took longer than 10 minutes. Start again.');
      const p = { verifier: bound.verifier, origin: originOf(c) };
      const error = c.req.query('error');
      if (error) {
        const why = c.req.query('error_description');
        return refuse(c, 403, `The identity provider did not sign you in (${error.slice(0, 100)}${why ? `: ${why.slice(0, 200)}` : ''}).`);
      }
      let accessToken: string;
      try {
        const provider = await discoverProvider(ops.issuer, ops.window);
        const here = new URL(`${p.origin}${SIGN_IN_CALLBACK_PATH}${new URL(c.req.url).search}`);
        const tokens = await (
          await openidClient()
        ).authorizationCodeGrant(
          provider,
          here,
          { pkceCodeVerifier: p.verifier, expectedState: state },
          { resource: ops.audience ?? `${p.origin}/control` },
        );
        accessToken = tokens.access_token;
      } catch (err) {
        return refuse(c, 502, `The identity provider did not complete the sign-in (${describe(err)}).`);
      }
      const verdict = await d.check(accessToken, p.origin);
      if (!('actor' in verdict)) return refuse(c, verdict.status, verdict.message);
      const session = d.sessions.open(verdict);
      setSessionCookie(c, session.id, d.secure);
      // A page, not a redirect: the provider's redirect chain is cross-site, and a browser withholds the
      // SameSite=Strict session cookie from the next hop of such a chain; this page's own navigation is same-site.
      return through(
        c,
        signInAnswer({
          status: 200,
          title: `Signed in as ${verdict.actor.name}`,
          sentence: `Opening the window with the ${verdict.actor.role} role…`,
          next: `/ui/#${CSRF_FRAGMENT}=${session.csrf}`,
        }),
      );
    },
  };
}
