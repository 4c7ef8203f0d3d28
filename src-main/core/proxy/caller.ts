// The caller of a tools/call as the core sees it, built one way for both serving paths — the fast
// path (fastPath.ts) and the SDK's (agentServer.ts) — so the call log, approvals and an upstream's
// requests meet the same caller whichever path answered.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { SERVER_INFO_META_KEY } from '../protocol.js';
import type { DownstreamPeer } from '../upstream/types.js';
import type { CallContext } from './runtime.js';

export const PROXY_SERVER_INFO = { name: 'mcp-working-set', version: '0.1.0' } as const;
/** The `_meta` every 2026-07-28 answer of this server carries. */
export const SERVER_META = { [SERVER_INFO_META_KEY]: PROXY_SERVER_INFO };

/**
 * Which client made a call, as the call log and the activity view name it: the client's own name
 * (from the request's envelope, else what its session said at initialize), else its User-Agent, else "unknown".
 */
export function callerName(...said: unknown[]): string {
  for (const s of said) if (typeof s === 'string' && s) return s;
  return 'unknown';
}

/**
 * A caller that takes no requests or notifications on its path (the fast path sends one JSON answer
 * and nothing before it): an upstream asking it for sampling, elicitation or roots is told the client
 * does not support them, as the SDK path tells a client that did not declare them.
 */
export function passivePeer(modern: boolean, capabilities: DownstreamPeer['capabilities'] = {}): DownstreamPeer {
  return {
    modern,
    passive: true,
    capabilities,
    notify: async () => {},
    request: async () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The calling client cannot take requests on this path.');
    },
  };
}

export type Caller = {
  /** The client's name in the request's envelope (2026-07-28). */
  envelopeClient: unknown;
  /** The name its 2025 session gave at initialize. */
  sessionClient: unknown;
  userAgent: string | null | undefined;
  /** The 2025 session the call came on; undefined for a stateless 2026-07-28 request. */
  session: string | undefined;
  signal: AbortSignal | undefined;
  peer: DownstreamPeer;
  progress?: CallContext['progress'] | undefined;
};

/** The context of a call an agent made itself (not through call_tool). */
export function directCall(c: Caller): CallContext {
  return {
    via: 'direct',
    client: callerName(c.envelopeClient, c.sessionClient, c.userAgent),
    session: c.session,
    ...(c.signal ? { signal: c.signal } : {}),
    peer: c.peer,
    ...(c.progress ? { progress: c.progress } : {}),
  };
}
