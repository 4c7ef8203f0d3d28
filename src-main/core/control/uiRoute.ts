// The settings window served headless at /ui: the same built renderer the desktop app loads. A
// one-time link (printed by `mws serve`) becomes an HttpOnly, SameSite=Strict session cookie; without
// it /ui and /control refuse. The window then talks to /control with that cookie.
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Route } from '../proxy/listener.js';
import { tokenMatches } from './token.js';
import { signInPage } from './signInPage.js';

export const SESSION_COOKIE = 'mws_session';
/** A one-time link is good for this long; after that `mws ui` prints a new one. */
export const UI_LINK_TTL_MS = 15 * 60 * 1000;
/** Window sessions kept at most; the oldest is forgotten first (its window asks for a new link). */
export const MAX_UI_SESSIONS = 64;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.ico': 'image/x-icon', '.woff2': 'font/woff2',
};

export class UiSessions {
  private readonly links = new Map<string, number>();
  private readonly sessions = new Set<string>();
  constructor(private readonly now: () => number) {}

  /** A fresh one-time token for a /ui?token= link. */
  link(): string {
    const t = randomBytes(24).toString('base64url');
    this.links.set(t, this.now() + UI_LINK_TTL_MS);
    return t;
  }

  /** Spends a one-time token; answers a session id for the cookie, or undefined. */
  exchange(token: string | null): string | undefined {
    if (!token) return undefined;
    for (const [t, expires] of this.links) {
      if (expires < this.now()) this.links.delete(t);
      else if (tokenMatches(token, t)) {
        this.links.delete(t);
        const s = randomBytes(32).toString('base64url');
        this.sessions.add(s);
        if (this.sessions.size > MAX_UI_SESSIONS) this.sessions.delete(this.sessions.values().next().value!);
        return s;
      }
    }
    return undefined;
  }

  authorized(request: Request): boolean {
    const cookie = request.headers.get('cookie') ?? '';
    const m = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(cookie);
    if (!m) return false;
    for (const s of this.sessions) if (tokenMatches(m[1]!, s)) return true;
    return false;
  }
}

const refused = (kind: 'no-session' | 'link-spent' = 'no-session') => signInPage(kind);

export function uiRoute(sessions: UiSessions, rendererDir: string): Route {
  return (request, url) => {
    if (url.pathname !== '/ui' && !url.pathname.startsWith('/ui/')) return undefined;
    return (async () => {
      const token = url.searchParams.get('token');
      if (token !== null) {
        const session = sessions.exchange(token);
        if (!session) return refused('link-spent');
        return new Response(null, {
          status: 303,
          headers: { location: '/ui/', 'set-cookie': `${SESSION_COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/` },
        });
      }
      if (!sessions.authorized(request)) return refused();
      if (url.pathname === '/ui') return new Response(null, { status: 301, headers: { location: '/ui/' } });
      const rel = decodeURIComponent(url.pathname.slice('/ui/'.length)) || 'index.html';
      const file = normalize(join(rendererDir, rel));
      if (!file.startsWith(normalize(rendererDir) + sep)) return new Response('Not found.\n', { status: 404 });
      try {
        if (!(await stat(file)).isFile()) throw new Error('not a file');
        return new Response(await readFile(file), { headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' } });
      } catch {
        if (rel === 'index.html') return new Response('The window is not built yet: run `npm run build`, then reload.\n', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
        return new Response('Not found.\n', { status: 404 });
      }
    })();
  };
}
