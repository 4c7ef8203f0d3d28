// Builds the low-level MCP Server that answers one agent: the upstream tool objects pass through
// as data, which McpServer's per-tool registration would not allow. Resources, prompts, completions
// and logging pass through too, advertised only when some upstream serves them.
import { Server, type ClientCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { sdkResult } from './results.js';
import type { DownstreamPeer } from '../upstream/types.js';
import type { Passthrough } from './passthrough.js';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, MODERN_REVISION, PROTOCOL_VERSION_META_KEY } from '../protocol.js';
import type { AgentRuntime, CallContext } from './runtime.js';
import { directCall, PROXY_SERVER_INFO } from './caller.js';

/** Sessions whose client asked for log messages: their calls must run where notifications can reach them. */
const loggingServers = new WeakSet<Server>();

/**
 * Whether calls on this 2025 session may be answered by the fast path (proxy/fastPath.ts), which sends
 * one JSON answer and nothing before it: not when the client can take the upstream's sampling,
 * elicitation or roots requests, or asked for log messages — those need the SDK path's peer.
 */
export function fastPathServes(server: Server): boolean {
  const caps = server.getClientCapabilities();
  return !caps?.sampling && !caps?.elicitation && !caps?.roots && !loggingServers.has(server);
}

export function peerOf(server: Server, ctx: ServerContext): DownstreamPeer {
  const token = ctx.mcpReq._meta?.progressToken;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = (server.getClientCapabilities() ?? envelope?.[CLIENT_CAPABILITIES_META_KEY]) as ClientCapabilities | undefined;
  const modern = envelope?.[PROTOCOL_VERSION_META_KEY] === MODERN_REVISION;
  const inputResponses = ctx.mcpReq.inputResponses;
  const requestState = modern ? ctx.mcpReq.requestState<unknown>() : undefined;
  const retry =
    inputResponses !== undefined || typeof requestState === 'string'
      ? { ...(inputResponses ? { inputResponses } : {}), ...(typeof requestState === 'string' ? { requestState } : {}) }
      : undefined;
  return {
    ...(typeof token === 'string' || typeof token === 'number' ? { progressToken: token } : {}),
    modern,
    ...(retry ? { retry } : {}),
    capabilities: caps,
    notify: (n) => ctx.mcpReq.notify(n as never),
    request: async (r) => (await ctx.mcpReq.send(r as never)) as unknown as Record<string, unknown>,
  };
}

/** Progress for this request when the client sent a progress token (approvals keep the call alive with it). */
function progressTo(ctx: ServerContext): CallContext['progress'] {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (progress, total, message) =>
    void ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message },
      })
      .catch(() => {});
}

/** Per-session hooks for resource subscriptions (2025 sessions track which URIs they follow). */
export type SessionHooks = { subscribed(uri: string): void; unsubscribed(uri: string): void };

export function createAgentServer(agentId: string, runtime: AgentRuntime, passthrough?: Passthrough, session?: SessionHooks): Server {
  const extra = passthrough?.capabilities() ?? {};

  const server = new Server(PROXY_SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, ...extra },
    instructions: runtime.instructions(agentId),
  });
  server.setRequestHandler('tools/list', async () => {
    await runtime.ready();
    return { tools: runtime.listTools(agentId) };
  });
  server.setRequestHandler('tools/call', async (req, ctx) => {
    await runtime.ready();
    return sdkResult(
      await runtime.callTool(
        agentId,
        req.params.name,
        req.params.arguments,
        directCall({
          envelopeClient: (ctx.mcpReq.envelope as Record<string, { name?: unknown } | undefined> | undefined)?.[CLIENT_INFO_META_KEY]?.name,
          sessionClient: server.getClientVersion()?.name,
          userAgent: ctx.http?.req?.headers.get('user-agent'),
          session: ctx.sessionId,
          signal: ctx.mcpReq.signal,
          peer: peerOf(server, ctx),
          progress: progressTo(ctx),
        }),
      ),
    );
  });
  if (!passthrough) return server;
  const p = passthrough;
  type Params = Record<string, unknown>;
  const params = (req: { params?: unknown }) => (req.params ?? {}) as Params;
  if (extra.resources) {
    server.setRequestHandler('resources/list', async () => (await p.listResources()) as never);
    server.setRequestHandler('resources/templates/list', async () => (await p.listResourceTemplates()) as never);
    server.setRequestHandler(
      'resources/read',
      async (req, ctx) => sdkResult(await p.readResource(params(req), peerOf(server, ctx))) as never,
    );
    if (extra.resources.subscribe) {
      server.setRequestHandler('resources/subscribe', async (req) => {
        const r = await p.subscribe(params(req));
        session?.subscribed(String(req.params.uri));
        return r as never;
      });
      server.setRequestHandler('resources/unsubscribe', async (req) => {
        const r = await p.unsubscribe(params(req));
        session?.unsubscribed(String(req.params.uri));
        return r as never;
      });
    }
  }
  if (extra.prompts) {
    server.setRequestHandler('prompts/list', async () => (await p.listPrompts()) as never);
    server.setRequestHandler('prompts/get', async (req, ctx) => sdkResult(await p.getPrompt(params(req), peerOf(server, ctx))) as never);
  }
  if (extra.completions) server.setRequestHandler('completion/complete', async (req) => (await p.complete(params(req))) as never);
  if (extra.logging) {
    server.setRequestHandler('logging/setLevel', async (req) => {
      loggingServers.add(server);
      return (await p.setLevel(params(req))) as never;
    });
  }
  return server;
}
