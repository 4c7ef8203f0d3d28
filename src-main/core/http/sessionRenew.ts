// Gives the window back its session cookie when the browser lost it. Cookies know no ports: a page on
// another port can push ours out of the jar with a flood of its own, and a server on another port can
// replace it with an HTTP answer. The window still holds its CSRF token (in its origin's localStorage,
// which no other port can read), and that token names its session: POST /ui/_session with it in the
// header sets the cookie again. /control itself still needs both. The sign-in page runs the small
// script below, so a reload after such a loss comes back to the window rather than asking for a link.
import type { Context } from 'hono';
import { CSRF_HEADER, type UiSessions } from './uiSessions.js';
import { setSessionCookie } from './cookies.js';

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

/** GET /ui/_renew.js: the script above (the sign-in page loads it; only 'self' scripts run there). */
export function renewScript(c: Context): Response {
  c.header('content-type', 'text/javascript; charset=utf-8');
  c.header('cache-control', 'no-store');
  return c.body(RENEW_SCRIPT);
}

/** POST /ui/_session: the CSRF token in the header names the session whose cookie is set again. */
export function renewSession(sessions: UiSessions, secure = false) {
  return (c: Context): Response => {
    if (c.req.method !== 'POST') return c.text('Use POST.\n', 405);
    const s = sessions.byCsrfHeader(c.req.raw);
    if (!s) return c.text('This window session has ended: open a new link with `mws ui`.\n', 401);
    setSessionCookie(c, s.id, secure);
    c.header('cache-control', 'no-store');
    return c.body(null, 204);
  };
}
