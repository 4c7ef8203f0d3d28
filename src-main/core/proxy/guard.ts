// Who may talk to the listener at all, decided on the raw Node request before anything parses it.
// Host: a loopback name with this listener's port (DNS-rebinding defence). Origin, when a browser
// sends one: exactly this listener's own origin — scheme, host and port — since every page on
// another local port (a dev server, a notebook) is a different origin and must not drive the proxy.
import type { IncomingHttpHeaders } from 'node:http';

/** The loopback names a browser or client may use to reach us. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const HOST_HEADER = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::(\d{1,5}))?$/i;

export type Refusal = { status: number; message: string };

/** The origins that are this listener (only http: it never serves TLS). */
export function ownOrigins(port: number): string[] {
  return LOOPBACK_NAMES.map((h) => `http://${h}:${port}`);
}

/** A refusal when Host or Origin is not this listener; undefined when the request may proceed. */
export function refuseForeign(method: string | undefined, headers: IncomingHttpHeaders, port: number): Refusal | undefined {
  const host = headers.host;
  const m = typeof host === 'string' ? HOST_HEADER.exec(host) : null;
  if (!m || (m[2] !== undefined && Number(m[2]) !== port)) {
    return { status: 403, message: 'Forbidden: the Host header must name this proxy on loopback (127.0.0.1, localhost or [::1]) with its own port.' };
  }
  const origin = headers.origin;
  if (origin !== undefined && !ownOrigins(port).includes(origin.toLowerCase())) {
    return { status: 403, message: `Forbidden: requests from ${clip(origin)} are refused; only pages served by this proxy itself (${ownOrigins(port)[0]}) may call it.` };
  }
  // Browsers label every request; a request another site's page started (even a no-cors GET, which
  // carries no Origin) says cross-site or same-site here. `none` is the user typing the link; a
  // top-level navigation (clicking the one-time link in a chat or an editor) only opens the window,
  // whose content the linking page cannot read.
  const site = headers['sec-fetch-site'];
  const navigation = method === 'GET' && headers['sec-fetch-mode'] === 'navigate';
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !navigation) {
    return { status: 403, message: 'Forbidden: this request was started by a page of another site or port; only pages served by this proxy itself may call it.' };
  }
  return undefined;
}

function clip(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 80) + '…' : s);
}
