// The window's session cookie as the edge writes it, through Hono's cookie helper. Reading goes through
// http/uiSessions.ts (cookieValues), which must see every value of the name, not only the first.
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { sessionCookieName } from './uiSessions.js';

/**
 * Makes `id` this browser's window session. HttpOnly: no script reads or overwrites it; SameSite=Strict:
 * another site's page never sends it; Priority=High: Chromium evicts it last from a crowded jar. No
 * Max-Age: the session ends with the browser or with UiSessions' idle and absolute limits.
 */
export function setSessionCookie(c: Context, id: string, secure = false): void {
  // Secure on a network listener (always behind TLS there): the browser never sends it in the clear.
  setCookie(c, sessionCookieName(c.req.raw), id, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    priority: 'High',
    ...(secure ? { secure } : {}),
  });
}
