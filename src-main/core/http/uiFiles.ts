// GET /ui/…: the settings window's built files (the same renderer the desktop app loads), served by
// @hono/node-server's serveStatic (MIME types from Hono's table, no `..`, `//`, `\` or `%` tricks past
// the folder), only to a browser holding a window session, with the window's headers (the edge adds them).
import { existsSync } from 'node:fs';
import type { Context, Next } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { CSRF_FRAGMENT, type UiSessions } from './uiSessions.js';
import { signInPage } from './signInPage.js';
import { setSessionCookie } from './cookies.js';

/** A one-time link (`/ui?token=…`, on any /ui path) becomes a session: cookie set, CSRF token in the fragment. */
export function spendLink(sessions: UiSessions, secure = false) {
  return async (c: Context, next: Next): Promise<Response | void> => {
    const token = c.req.query('token');
    if (token === undefined) return next();
    const session = sessions.exchange(token);
    if (!session) return signInPage('link-spent');
    // The fragment is read by the window and never sent to a server; no-referrer keeps the spent
    // link out of any request the window makes.
    setSessionCookie(c, session.id, secure);
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    return c.redirect(`/ui/#${CSRF_FRAGMENT}=${session.csrf}`, 303);
  };
}

/** Without a session the window's files are not served: the sign-in page says how to get a link (or sign in at the provider). */
export function needSession(sessions: UiSessions, providerOffered: () => boolean = () => false) {
  return async (c: Context, next: Next): Promise<Response | void> =>
    sessions.session(c.req.raw) ? next() : signInPage('no-session', providerOffered());
}

/** The window's files under `rendererDir`; a missing index.html means the window was never built. */
export function uiFiles(rendererDir: string) {
  // Made once the folder is there (serveStatic writes to stderr when made without it): a window built
  // after `mws serve` started is served on the next reload.
  let files: ReturnType<typeof serveStatic> | undefined;
  const made = () =>
    (files ??= existsSync(rendererDir)
      ? serveStatic({ root: rendererDir, rewriteRequestPath: (path) => path.slice('/ui'.length) || '/' })
      : undefined);
  return async (c: Context, next: Next): Promise<Response | void> => {
    // Set before the file's answer is made (serveStatic's onFound runs after): a rebuilt window is read anew.
    c.header('cache-control', 'no-store');
    const served = await made()?.(c, async () => {});
    if (served) return served;
    if (c.req.path === '/ui/' || c.req.path === '/ui/index.html') {
      return c.text('The window is not built yet: run `npm run build`, then reload.\n', 503);
    }
    return next();
  };
}
