// Who may talk to the listener at all, decided on the raw Node request before anything parses it.
// Host: a loopback name with this listener's port (DNS-rebinding defence). Origin, when a browser
// sends one: exactly this listener's own origin — scheme, host and port — since every page on
// another local port (a dev server, a notebook) is a different origin and must not drive the proxy.
// In network mode (exposure.ts) the public origin is accepted too, and X-Forwarded-* only from a trusted proxy.
import type { IncomingHttpHeaders } from 'node:http';
import type { Exposure } from './exposure.js';

/** The loopback names a browser or client may use to reach us. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
/** One IPv4 octet as URL parsers accept it unchanged: 0–255, no leading zero (`08` is bad octal, `256` no address). */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const HOST_HEADER = new RegExp(`^(localhost|127\\.${OCTET}\\.${OCTET}\\.${OCTET}|\\[::1\\])(?::(\\d{1,5}))?$`, 'i');

/**
 * The paths a page of another site or port may open as a top-level navigation (a link in a chat or an
 * editor): the window and its sign-in. Anything else must come from the window itself or a non-browser
 * client. One line per path (exact, or a prefix ending in `/`).
 */
// '/oauth/callback': the authorization server's redirect after a sign-in (a top-level GET from its site).
export const NAVIGABLE_PATHS: readonly string[] = ['/', '/ui', '/ui/', '/oauth/callback'];

/** What a browser says a request will become: a frame of any kind may never hold the window (clickjacking). */
const FRAME_DESTS = new Set(['iframe', 'frame', 'embed', 'object', 'fencedframe']);

export type Refusal = { status: number; message: string };

/** The origins that are this listener (only http: it never serves TLS). */
export function ownOrigins(port: number): string[] {
  return LOOPBACK_NAMES.map((h) => `http://${h}:${port}`);
}

function navigable(path: string | undefined): boolean {
  if (path === undefined) return false;
  return NAVIGABLE_PATHS.some((p) => (p.endsWith('/') && p !== '/' ? path.startsWith(p) : path === p));
}

/** The headers a proxy adds; believed only from `listen.trustedProxies`, refused from anyone else in network mode. */
const FORWARDED = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'x-forwarded-port', 'forwarded'];

/** Where a network listener is reached: its Host values and its origins (the loopback ones stay too). */
export type NetworkSide = { exposure: Exposure; listenHost: string; remote: string | undefined };

function networkNames(side: NetworkSide, port: number): { hosts: Set<string>; origins: Set<string> } {
  const scheme = side.exposure.tls ? 'https' : 'http';
  const hosts = new Set<string>();
  const origins = new Set(LOOPBACK_NAMES.map((h) => `${scheme}://${h}:${port}`));
  const bare = side.listenHost.toLowerCase();
  // A wildcard address is no name a client uses: the public origin (or a loopback name) is.
  if (bare !== '0.0.0.0' && bare !== '::' && bare !== '[::]') {
    const h = bare.includes(':') && !bare.startsWith('[') ? `[${bare}]` : bare;
    hosts.add(`${h}:${port}`);
    origins.add(`${scheme}://${h}:${port}`);
  }
  if (side.exposure.publicOrigin) {
    const u = new URL(side.exposure.publicOrigin);
    hosts.add(u.host);
    if (!u.port) hosts.add(`${u.hostname}:443`);
    origins.add(u.origin);
  }
  return { hosts, origins };
}

/** A refusal when Host or Origin is not this listener; undefined when the request may proceed. `path` is the normalized path, when it parses. */
export function refuseForeign(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  port: number,
  path?: string,
  side?: NetworkSide,
): Refusal | undefined {
  let host = headers.host;
  let names: { hosts: Set<string>; origins: Set<string> } | undefined;
  if (side?.exposure.network) {
    const forwarded = FORWARDED.filter((h) => headers[h] !== undefined);
    if (forwarded.length && !side.exposure.trusted(side.remote)) {
      return {
        status: 403,
        message: `Forbidden: ${forwarded[0]} is accepted only from the proxies in "listen.trustedProxies", and this request came from another address.`,
      };
    }
    const fh = headers['x-forwarded-host'];
    if (typeof fh === 'string') host = fh.split(',')[0]!.trim();
    names = networkNames(side, port);
  }
  const m = typeof host === 'string' ? HOST_HEADER.exec(host) : null;
  const loopbackName = !!m && (m[2] === undefined || Number(m[2]) === port);
  if (!loopbackName && !(typeof host === 'string' && names?.hosts.has(host.toLowerCase()))) {
    return {
      status: 403,
      message: names
        ? `Forbidden: the Host header must name this proxy (${[...names.hosts][0] ?? `127.0.0.1:${port}`}), as "listen.publicUrl" or "listen.host" says.`
        : 'Forbidden: the Host header must name this proxy on loopback (127.0.0.1, localhost or [::1]) with its own port.',
    };
  }
  const origin = headers.origin;
  // Only a browser's request has an Origin (agents' clients send none), so only it needs the set.
  if (origin !== undefined) {
    const origins = names?.origins ?? new Set(ownOrigins(port));
    if (!origins.has(origin.toLowerCase()))
      return {
        status: 403,
        message: `Forbidden: requests from ${clip(origin)} are refused; only pages served by this proxy itself (${names ? [...origins].at(-1) : ownOrigins(port)[0]}) may call it.`,
      };
  }
  // No page may put us in a frame, not even one of ours: a framed window under another page's
  // buttons would take the user's clicks (the CSP's frame-ancestors says the same to the browser).
  const dest = headers['sec-fetch-dest'];
  if (typeof dest === 'string' && FRAME_DESTS.has(dest.toLowerCase())) {
    return { status: 403, message: 'Forbidden: Working Set cannot be shown inside a frame; open it in its own tab or window.' };
  }
  // Browsers label every request; a request another site's page started (even a no-cors GET, which
  // carries no Origin) says cross-site or same-site here. `none` is the user typing the link; a
  // top-level navigation to the window (clicking the one-time link in a chat or an editor) only opens
  // it, whose content the linking page cannot read.
  const site = headers['sec-fetch-site'];
  const topLevel =
    method === 'GET' && headers['sec-fetch-mode'] === 'navigate' && (dest === undefined || dest === 'document') && navigable(path);
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !topLevel) {
    return {
      status: 403,
      message: 'Forbidden: this request was started by a page of another site or port; only pages served by this proxy itself may call it.',
    };
  }
  return undefined;
}

function clip(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s);
}
