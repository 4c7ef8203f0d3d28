// The settings window's sessions when it is served headless at /ui (the HTTP edge, http/uiFiles.ts,
// serves the files and sets the cookie). A one-time link (printed by `mws serve`) becomes an HttpOnly,
// SameSite=Strict session cookie; without it /ui and /control refuse. Cookies are not port-scoped: the browser also sends this one to any
// server on another port of 127.0.0.1, which could replay it. So the cookie only opens the window's
// static files, and every /control call must also carry the session's CSRF token in a header. The
// token reaches the window once, in the fragment of the login redirect (never sent to any server),
// and the window keeps it in its origin's localStorage, which no other port can read. Sessions end
// after an idle and an absolute limit, or all at once (`mws ui --revoke-all`).
// A page on another port can also set a cookie for 127.0.0.1 (cookies know no ports, and `__Host-`
// needs https): the cookie's name carries this port, so two instances do not sign each other out, and
// every cookie of that name is tried, so a tossed one (a longer Path is sent first) cannot hide ours.
// Script cannot overwrite an HttpOnly cookie; a cookie pushed out of the jar (a flood of cookies) or
// replaced by another local server is given back to the window that still holds its CSRF token
// (http/sessionRenew.ts), so neither signs it out.
import { randomBytes } from 'node:crypto';
import type { UiSessionSettings } from '../config/schema.js';
import { tokenMatches } from '../store/controlToken.js';
import type { Actor } from '../actor.js';

/** The session cookie's name is this, then `_` and the listener's port (`mws_session_4484`). */
export const SESSION_COOKIE = 'mws_session';
/** The cookie's name for the port this request came to (its Host, which the listener checked is ours). */
export function sessionCookieName(request: Request): string {
  return `${SESSION_COOKIE}_${new URL(request.url).port || '80'}`;
}
/**
 * Every value sent under `name` (a browser sends one per Path that matches), at most 32 of them.
 * Hand-written because Hono's getCookie keeps only the first value of a name, and a tossed cookie
 * with a longer Path is sent first (test/unit/http/httpEdge.test.ts shows it).
 */
export function cookieValues(header: string | null, name: string): string[] {
  const out: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    out.push(part.slice(eq + 1).trim());
    if (out.length >= 32) break;
  }
  return out;
}
/** The header (and, for EventSource, which cannot send headers, the query parameter) with the CSRF token. */
export const CSRF_HEADER = 'x-mws-csrf';
export const CSRF_PARAM = 'csrf';
/** The fragment key of the login redirect that hands the window its CSRF token. */
export const CSRF_FRAGMENT = 'mws-csrf';
/** A one-time link is good for this long; after that `mws ui` prints a new one. */
export const UI_LINK_TTL_MS = 15 * 60 * 1000;
/** Window sessions kept at most; the oldest is forgotten first (its window asks for a new link). */
export const MAX_UI_SESSIONS = 64;
/** One-time links kept at most (each `mws ui` makes one); the oldest is forgotten first. */
export const MAX_UI_LINKS = 64;

/**
 * A session opened by a one-time link is the admin's (who could read the control token); one opened by
 * signing in through the team's provider is that operator's, with their role, and ends when their
 * access token does (`until`), so a person removed at the provider is out within its lifetime.
 */
type Session = { id: string; csrf: string; created: number; lastSeen: number; actor?: Actor; until?: number };

export class UiSessions {
  private readonly links = new Map<string, number>();
  private readonly sessions = new Map<string, Session>();
  constructor(
    private readonly now: () => number,
    private readonly limits: () => UiSessionSettings = () => ({ idleMinutes: 120, maxHours: 24 }),
  ) {}

  /** A fresh one-time token for a /ui?token= link. */
  link(): string {
    const t = randomBytes(24).toString('base64url');
    this.links.set(t, this.now() + UI_LINK_TTL_MS);
    if (this.links.size > MAX_UI_LINKS) this.links.delete(this.links.keys().next().value!);
    return t;
  }

  get liveSessions(): number {
    this.expire();
    return this.sessions.size;
  }

  /** Spends a one-time token; answers the new session (its id for the cookie, its CSRF token), or undefined. */
  exchange(token: string | null): { id: string; csrf: string } | undefined {
    if (!token) return undefined;
    for (const [t, expires] of this.links) {
      if (expires < this.now()) this.links.delete(t);
      else if (tokenMatches(token, t)) {
        this.links.delete(t);
        return this.open();
      }
    }
    return undefined;
  }

  /** A new session: the admin's, or a signed-in operator's until their token ends. */
  open(operator?: { actor: Actor; until: number }): { id: string; csrf: string } {
    const s: Session = {
      id: randomBytes(32).toString('base64url'),
      csrf: randomBytes(32).toString('base64url'),
      created: this.now(),
      lastSeen: this.now(),
      ...(operator ? { actor: operator.actor, until: operator.until } : {}),
    };
    this.sessions.set(s.id, s);
    if (this.sessions.size > MAX_UI_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return { id: s.id, csrf: s.csrf };
  }

  /** Ends every window session and forgets every unspent link; answers how many sessions ended. */
  revokeAll(): number {
    const n = this.sessions.size;
    this.sessions.clear();
    this.links.clear();
    return n;
  }

  /** The live session the request's cookie names (cookie only: enough to load the window's files). */
  session(request: Request): Session | undefined {
    const given = cookieValues(request.headers.get('cookie'), sessionCookieName(request)).filter((v) => v.length > 0);
    if (!given.length) return undefined;
    this.expire();
    for (const s of this.sessions.values()) {
      if (given.some((v) => tokenMatches(v, s.id))) {
        s.lastSeen = this.now();
        return s;
      }
    }
    return undefined;
  }

  /** The live session whose CSRF token the request carries in its header (the window's own proof, readable by no other origin). */
  byCsrfHeader(request: Request): Session | undefined {
    const given = request.headers.get(CSRF_HEADER);
    if (!given) return undefined;
    this.expire();
    for (const s of this.sessions.values()) {
      if (tokenMatches(given, s.csrf)) {
        s.lastSeen = this.now();
        return s;
      }
    }
    return undefined;
  }

  /** A request the window itself made: its session cookie, plus that session's CSRF token in the header (or query, for events). */
  authorized(request: Request): boolean {
    return this.caller(request) !== undefined;
  }

  /** Who a request the window made comes from: the operator signed in (actor), or the admin (no actor); undefined if not the window. */
  caller(request: Request): { actor?: Actor } | undefined {
    const s = this.session(request);
    if (!s) return undefined;
    const given = request.headers.get(CSRF_HEADER) ?? new URL(request.url).searchParams.get(CSRF_PARAM);
    if (!tokenMatches(given, s.csrf)) return undefined;
    return s.actor ? { actor: s.actor } : {};
  }

  private expire(): void {
    const { idleMinutes, maxHours } = this.limits();
    const now = this.now();
    for (const [id, s] of this.sessions) {
      if (now - s.lastSeen > idleMinutes * 60_000 || now - s.created > maxHours * 3_600_000 || (s.until !== undefined && now >= s.until))
        this.sessions.delete(id);
    }
  }
}
