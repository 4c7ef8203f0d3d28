// Builds the SDK client transport for each kind of upstream.
import type { Transport } from '@modelcontextprotocol/client';
import { clientSdk } from './clientSdk.js';
import { StdioUpstreamTransport } from './stdioTransport.js';
import type { UpstreamConfig } from '../config/schema.js';
import { MwsError } from '../errors.js';
import type { FinishesAuth, UpstreamAuth } from './oauth/upstreamAuth.js';
import { boundedFetch } from './boundedFetch.js';
import { guardSignInHosts } from './oauth/signInHosts.js';

export type BuiltTransport = {
  transport: Transport;
  stderr?: NodeJS.ReadableStream | null;
  dispose: () => void;
  /** The HTTP transport that redeems a sign-in's code (it holds the 401's resource metadata and scope). */
  finishesAuth?: FinishesAuth;
  /** The HTTP status of the server's last answer (not the authorization server's). */
  lastServerStatus?: () => number | undefined;
};

/** An MCP server run in this process for a `builtin` upstream. */
export type BuiltinServer = { connect(transport: Transport): Promise<void>; close(): Promise<void> };

/** Servers run in this process under `kind: "builtin"`, registered by the app (the demo): upstream/ knows none by name. */
const builtins = new Map<string, () => BuiltinServer>();

export function registerBuiltin(name: string, create: () => BuiltinServer): void {
  builtins.set(name, create);
}

/**
 * The SDK's HTTP transport shares one AbortSignal across requests, so a long-lived client piles up abort
 * listeners. Each request gets its own controller instead; `dispose` aborts whatever is still open.
 */
function perRequestSignalFetch(base: typeof fetch): { fetch: typeof fetch; dispose: () => void } {
  const open = new Set<AbortController>();
  const wrapped: typeof fetch = async (input, init) => {
    const ctrl = new AbortController();
    const outer = init?.signal;
    const onAbort = () => ctrl.abort(outer?.reason);
    if (outer?.aborted) ctrl.abort(outer.reason);
    else outer?.addEventListener('abort', onAbort, { once: true });
    open.add(ctrl);
    try {
      return await base(input, { ...init, signal: ctrl.signal });
    } finally {
      open.delete(ctrl);
      outer?.removeEventListener('abort', onAbort);
    }
  };
  return { fetch: wrapped, dispose: () => open.forEach((c) => c.abort()) };
}

export type TransportLimits = { maxResultBytes: number };
/** How an HTTP upstream is reached: its OAuth client (none: static headers only), and which transport. */
export type HttpOptions = { auth?: UpstreamAuth; sse?: boolean; onBreach?: (sentence: string) => void };

/**
 * Every request an HTTP upstream makes (to the server, and its sign-in discovery, registration and
 * tokens): bounded, and never to a local sign-in server on a public server's word.
 */
export function upstreamFetch(
  serverUrl: string,
  limits: TransportLimits,
  onBreach: (sentence: string) => void = () => {},
  base: typeof fetch = fetch,
): typeof fetch {
  return boundedFetch(guardSignInHosts(base, serverUrl, onBreach), { serverUrl, maxResultBytes: limits.maxResultBytes, onBreach });
}

/**
 * Requests to the server itself first refresh an access token about to expire; the OAuth requests
 * (discovery, token, registration) go through `f` as they are.
 */
export function serverFetch(
  f: typeof fetch,
  serverUrl: string,
  auth: UpstreamAuth | undefined,
): { fetch: typeof fetch; lastStatus: () => number | undefined } {
  const server = new URL(serverUrl);
  let last: number | undefined;
  const wrapped: typeof fetch = async (input, init) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    const toServer = u.origin === server.origin && u.pathname === server.pathname;
    // A refresh token may be spent once: its grant goes through the sign-in's own gate.
    const grant = auth && !toServer ? refreshTokenOf(init) : undefined;
    if (auth && grant !== undefined) return auth.refreshGrant(grant, () => f(input, init));
    if (toServer && auth) await auth.refreshIfExpiring(f);
    const res = await f(input, init);
    if (toServer) last = res.status;
    return res;
  };
  return { fetch: wrapped, lastStatus: () => last };
}

/** The refresh token a token request carries (grant_type=refresh_token), if it is one. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return undefined;
  const p = body instanceof URLSearchParams ? body : typeof body === 'string' ? new URLSearchParams(body) : undefined;
  return p?.get('grant_type') === 'refresh_token' ? (p.get('refresh_token') ?? undefined) : undefined;
}

export async function buildTransport(cfg: UpstreamConfig, limits: TransportLimits, http: HttpOptions = {}): Promise<BuiltTransport> {
  switch (cfg.kind) {
    case 'http': {
      const sdk = await clientSdk();
      const f = perRequestSignalFetch(upstreamFetch(cfg.url, limits, http.onBreach));
      const sf = serverFetch(f.fetch, cfg.url, http.auth);
      const opts = {
        requestInit: { headers: cfg.headers },
        fetch: sf.fetch,
        ...(http.auth ? { authProvider: http.auth, skipIssuerMetadataValidation: http.auth.skipIssuerCheck } : {}),
      };
      // The old HTTP+SSE transport (2024-11-05) for servers that never moved to Streamable HTTP.
      const transport = http.sse
        ? new sdk.SSEClientTransport(new URL(cfg.url), opts)
        : new sdk.StreamableHTTPClientTransport(new URL(cfg.url), opts);
      return { transport, dispose: f.dispose, lastServerStatus: sf.lastStatus, ...(http.auth ? { finishesAuth: transport } : {}) };
    }
    case 'stdio': {
      const transport = new StdioUpstreamTransport({
        command: cfg.command,
        args: cfg.args,
        env: cfg.env,
        cwd: cfg.cwd,
        maxMessageBytes: limits.maxResultBytes,
      });
      return { transport, stderr: transport.stderr, dispose: () => {} };
    }
    case 'builtin': {
      const create = builtins.get(cfg.name);
      if (!create)
        throw new MwsError(
          'upstream_unavailable',
          `No built-in upstream "${cfg.name}" in this process. Use "demo" with mws serve --demo, or an http or stdio upstream.`,
        );
      const { InMemoryTransport } = await clientSdk();
      const [client, server] = InMemoryTransport.createLinkedPair();
      await create().connect(server);
      return { transport: client, dispose: () => void server.close() };
    }
  }
}
