// Gives the window back its session cookie when the browser lost it. Cookies know no ports: a page on
// another port can push ours out of the jar with a flood of its own, and a server on another port can
// replace it with an HTTP answer. The window still holds its CSRF token (in its origin's localStorage,
// which no other port can read), and that token names its session: POST /ui/_session with it in the
// header sets the cookie again. /control itself still needs both. The sign-in page runs the small
// script below, so a reload after such a loss comes back to the window rather than asking for a link.
import type { Route } from '../proxy/listener.js';
import { CSRF_HEADER, sessionCookie, type UiSessions } from './uiRoute.js';
import { withWindowHeaders } from './windowHeaders.js';

export const RENEW_PATH = '/ui/_session';
export const RENEW_SCRIPT_PATH = '/ui/_renew.js';

/** Tries once per half minute per tab, so a browser that refuses cookies altogether does not loop. */
const RENEW_SCRIPT = `(async () => {
  const csrf = localStorage.getItem('mws-csrf');
  const last = Number(sessionStorage.getItem('mws-renewed') || 0);
  if (!csrf || Date.now() - last < 30000) return;
  sessionStorage.setItem('mws-renewed', String(Date.now()));
  const r = await fetch(${JSON.stringify(RENEW_PATH)}, { method: 'POST', credentials: 'same-origin', headers: { ${JSON.stringify(CSRF_HEADER)}: csrf } });
  if (r.status !== 204) return;
  if (location.pathname === '/ui/') location.reload();
  else location.replace('/ui/' + location.hash);
})();
`;

function answer(sessions: UiSessions, request: Request, url: URL): Response | undefined {
  if (url.pathname === RENEW_SCRIPT_PATH && request.method === 'GET') {
    return new Response(RENEW_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' } });
  }
  if (url.pathname !== RENEW_PATH) return undefined;
  if (request.method !== 'POST') return new Response('Use POST.\n', { status: 405 });
  const s = sessions.byCsrfHeader(request);
  if (!s) return new Response('This window session has ended: open a new link with `mws ui`.\n', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(null, { status: 204, headers: { 'set-cookie': sessionCookie(request, s.id), 'cache-control': 'no-store' } });
}

/** Mounted before uiRoute: the two paths above, with the window's headers. */
export function renewRoute(sessions: UiSessions): Route {
  return (request, url) => {
    const res = answer(sessions, request, url);
    return res ? Promise.resolve(withWindowHeaders(res)) : undefined;
  };
}
