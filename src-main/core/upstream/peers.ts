// Routes an upstream's server→client requests (sampling, elicitation, roots) and its log messages to
// the downstream client whose call is in flight on that upstream. Stdio and 2025 upstreams do not say
// which of our requests a server→client request belongs to, so the most recent call still running is
// taken as its cause (the usual case is one call at a time per upstream).
import type { Client } from '@modelcontextprotocol/client';
import { loadedClientSdk } from './clientSdk.js';
import type { DownstreamPeer } from './types.js';

type Need = { method: string; capability: 'sampling' | 'elicitation' | 'roots'; what: string };

const ROUTED: Need[] = [
  { method: 'sampling/createMessage', capability: 'sampling', what: 'sampling (asking your model for a completion)' },
  { method: 'elicitation/create', capability: 'elicitation', what: 'elicitation (asking you a question)' },
  { method: 'roots/list', capability: 'roots', what: 'roots (the folders you work in)' },
];

export class PeerRouter {
  private readonly active: DownstreamPeer[] = [];

  /** Marks a call in flight; the returned function ends it. */
  enter(peer: DownstreamPeer): () => void {
    this.active.push(peer);
    return () => {
      const i = this.active.lastIndexOf(peer);
      if (i !== -1) this.active.splice(i, 1);
    };
  }

  current(): DownstreamPeer | undefined {
    return this.active[this.active.length - 1];
  }

  /** The most recent call in flight that `fits`, else the most recent one (which then says why it cannot). */
  pick(fits: (p: DownstreamPeer) => boolean): DownstreamPeer | undefined {
    for (let i = this.active.length - 1; i >= 0; i--) if (fits(this.active[i]!)) return this.active[i];
    return this.current();
  }

  install(client: Client, vendor: string): void {
    // A client exists, so its SDK module is loaded (the client's own error class, not the server's copy).
    const sdk = loadedClientSdk();
    if (!sdk)
      throw new Error('PeerRouter.install: the MCP client SDK is not loaded yet (load it with clientSdk() before making a Client).');
    const { ProtocolError, ProtocolErrorCode } = sdk;
    for (const need of ROUTED) {
      client.setRequestHandler(
        need.method as 'sampling/createMessage',
        (async (req: { params?: Record<string, unknown> }) => {
          const peer = this.pick((p) => !p.passive && !p.modern && !!p.capabilities?.[need.capability]);
          if (!peer) {
            throw new ProtocolError(
              ProtocolErrorCode.InvalidRequest,
              `Upstream "${vendor}" asked for ${need.what} while no client call was running; Working Set only forwards it to the client whose call caused it.`,
            );
          }
          if (peer.modern) {
            throw new ProtocolError(
              ProtocolErrorCode.MethodNotFound,
              `Upstream "${vendor}" asked for ${need.what} with a 2025-era request, and the client calling through Working Set speaks 2026-07-28, which takes no requests from servers.`,
            );
          }
          if (!peer.capabilities?.[need.capability]) {
            throw new ProtocolError(
              ProtocolErrorCode.MethodNotFound,
              `The client calling through Working Set does not support ${need.what}, so upstream "${vendor}" cannot use it for this call.`,
            );
          }
          const { _meta: _, ...params } = req.params ?? {};
          return peer.request({ method: need.method, params });
        }) as never,
      );
    }
    client.setNotificationHandler('notifications/message', (n: { params?: Record<string, unknown> }) => {
      const peer = this.pick((p) => !p.passive);
      if (peer?.passive) return; // no caller in flight can take a log message now
      void peer?.notify({ method: 'notifications/message', params: n.params ?? {} }).catch(() => {});
    });
  }
}
