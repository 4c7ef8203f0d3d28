// Signing in as a browser would: open the authorization URL, follow its redirect back to Working Set's
// /oauth/callback with the headers a browser sends on a top-level navigation from another site.
import { rawRequest } from './rawHttp.js';

export const NAVIGATION_HEADERS = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } as const;

/** The callback URL the authorization server redirects to (it consents at once in the fixtures). */
export async function authorizationRedirect(authorizationUrl: string): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const to = res.headers.get('location');
  if (!to) throw new Error(`the authorization server answered ${res.status} without a redirect: ${(await res.text()).slice(0, 200)}`);
  return new URL(to, authorizationUrl).href;
}

/** fetch() sets its own Sec-Fetch-Mode (cors): a navigation is sent with node:http instead. */
export async function openAsBrowser(url: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const r = await rawRequest(u.origin, 'GET', u.pathname + u.search, { ...NAVIGATION_HEADERS, accept: 'text/html' });
  return { status: r.status, body: r.body };
}

/** The whole sign-in: authorize, then land on the callback. */
export async function signInAsBrowser(authorizationUrl: string): Promise<{ status: number; body: string; callback: string }> {
  const callback = await authorizationRedirect(authorizationUrl);
  return { ...(await openAsBrowser(callback)), callback };
}
