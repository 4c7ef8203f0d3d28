// One agent's MCP endpoint, serving both protocol eras on one URL: 2026-07-28 requests through a
// stateless per-request handler, 2025 clients through a session each, so both hear list_changed.
import {
  Server,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.js';
import { createAgentServer, fastPathServes } from './agentServer.js';
import type { Passthrough } from './passthrough.js';
import type { AgentRuntime } from './runtime.js';
import { jsonRpcError, MCP_HEADER, RPC_ERROR } from '../protocol.js';

type LegacySession = { transport: WebStandardStreamableHTTPServerTransport; server: Server; lastSeen: number; subscriptions: Set<string> };

/**
 * A 2025 session nobody used for this long is closed; its client re-initializes on the next request
 * (a 404 tells it to). Minutes, not hours: any local process can open sessions, and each holds a
 * Server and a transport in memory.
 */
export const LEGACY_SESSION_IDLE_MS = 30 * 60 * 1000;
/** Live 2025 sessions kept per agent; past it the least recently used is closed first. */
export const MAX_LEGACY_SESSIONS = 256;

export class AgentEndpoint {
  private readonly modern: McpHttpHandler;
  private readonly sessions = new Map<string, LegacySession>();

  constructor(
    readonly agentId: string,
    private readonly runtime: AgentRuntime,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly passthrough?: Passthrough,
    private readonly maxSessions: number = MAX_LEGACY_SESSIONS,
  ) {
    this.modern = createMcpHandler(() => createAgentServer(agentId, runtime, passthrough), {
      // 2025 traffic is routed to sessions below; the default stateless fallback would answer GET
      // with 405 and its clients would never hear list_changed.
      legacy: 'reject',
      onerror: (err) => this.log.warn(`agent "${agentId}": ${err.message}`),
    });
  }

  get liveSessions(): number {
    return this.sessions.size;
  }

  async handle(request: Request): Promise<Response> {
    if (!(await isLegacyRequest(request))) return this.modern.fetch(request);
    return this.handleLegacy(request);
  }

  /**
   * A live 2025 session, for the fast path (proxy/fastPath.ts): marks it used, as a request through
   * its transport would, and says which client opened it. Undefined when this endpoint has no such session.
   */
  liveSession(id: string): { client: string | undefined } | undefined {
    const s = this.sessions.get(id);
    if (!s || !fastPathServes(s.server)) return undefined;
    s.lastSeen = this.now();
    // Map order is the LRU order the session cap evicts by: a session used on the fast path is recent too.
    this.sessions.delete(id);
    this.sessions.set(id, s);
    return { client: s.server.getClientVersion()?.name };
  }

  /** Tells every live connection of this agent, of both eras, that its tool list changed. */
  notifyToolsChanged(): void {
    this.modern.notify.toolsChanged();
    for (const [id, s] of this.sessions) {
      s.server.sendToolListChanged().catch(() => this.dropSession(id));
    }
  }

  /**
   * Passes on an upstream's notification for every client: resource and prompt list changes to all,
   * resources/updated to the 2025 sessions that subscribed to the URI and the 2026 listeners that opted in.
   */
  notifyUpstream(method: string, params: Record<string, unknown> | undefined): void {
    const ignore = () => {}; // a session without that capability, or closing: nothing to tell it
    if (method === 'notifications/resources/list_changed') {
      this.modern.notify.resourcesChanged();
      for (const s of this.sessions.values()) s.server.sendResourceListChanged().catch(ignore);
    } else if (method === 'notifications/prompts/list_changed') {
      this.modern.notify.promptsChanged();
      for (const s of this.sessions.values()) s.server.sendPromptListChanged().catch(ignore);
    } else if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') {
      const uri = params.uri;
      this.modern.notify.resourceUpdated(uri);
      for (const s of this.sessions.values()) if (s.subscriptions.has(uri)) s.server.sendResourceUpdated({ uri }).catch(ignore);
    }
  }

  /** Closes 2025 sessions idle past LEGACY_SESSION_IDLE_MS. */
  sweepIdleSessions(): void {
    const cutoff = this.now() - LEGACY_SESSION_IDLE_MS;
    for (const [id, s] of this.sessions) if (s.lastSeen < cutoff) this.dropSession(id);
  }

  async close(): Promise<void> {
    await this.modern.close();
    await Promise.all([...this.sessions.keys()].map((id) => this.dropSession(id)));
  }

  private async handleLegacy(request: Request): Promise<Response> {
    const sid = request.headers.get(MCP_HEADER.sessionId);
    if (sid) {
      const s = this.sessions.get(sid);
      if (!s) {
        // Per the 2025 transport, 404 tells the client to start a new session.
        return jsonRpcError(404, RPC_ERROR.unauthorized, 'Session not found: it expired or the proxy restarted. Start a new session.');
      }
      s.lastSeen = this.now();
      // Map order is the LRU order: a used session moves to the end.
      this.sessions.delete(sid);
      this.sessions.set(sid, s);
      return s.transport.handleRequest(request);
    }
    if (request.method !== 'POST') {
      return jsonRpcError(
        400,
        RPC_ERROR.refused,
        'Bad request: this 2025-era request needs an Mcp-Session-Id header; send initialize first.',
      );
    }
    // Capabilities are fixed at initialize: wait for the first catalog load so they are known.
    await this.runtime.ready();
    const subscriptions = new Set<string>();
    const server = createAgentServer(this.agentId, this.runtime, this.passthrough, {
      subscribed: (u) => subscriptions.add(u),
      unsubscribed: (u) => subscriptions.delete(u),
    });
    const session: LegacySession = { server, transport: undefined as never, lastSeen: this.now(), subscriptions };
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        while (this.sessions.size > this.maxSessions) void this.dropSession(this.sessions.keys().next().value!);
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    session.transport.onclose = () => {
      if (session.transport.sessionId) this.sessions.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    return session.transport.handleRequest(request);
  }

  private async dropSession(id: string): Promise<void> {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    await s?.server.close().catch(() => {});
  }
}
