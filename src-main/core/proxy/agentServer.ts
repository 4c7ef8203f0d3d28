// Builds the low-level MCP Server that answers one agent: the upstream tool objects pass through
// as data, which McpServer's per-tool registration would not allow.
import { Server, type ServerContext } from '@modelcontextprotocol/server';
import type { AgentRuntime, CallContext } from './runtime.js';

export const PROXY_SERVER_INFO = { name: 'mcp-working-set', version: '0.1.0' } as const;

function clientName(server: Server, ctx: ServerContext): string {
  const envelope = ctx.mcpReq.envelope as Record<string, { name?: string } | undefined> | undefined;
  const fromEnvelope = envelope?.['io.modelcontextprotocol/clientInfo'];
  return fromEnvelope?.name ?? server.getClientVersion()?.name ?? ctx.http?.req?.headers.get('user-agent') ?? 'unknown';
}

/** Progress for this request when the client sent a progress token (approvals keep the call alive with it). */
function progressTo(ctx: ServerContext): { progress?: NonNullable<CallContext['progress']> } {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return {};
  return { progress: (progress, total, message) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message } }).catch(() => {}) };
}

export function createAgentServer(agentId: string, runtime: AgentRuntime): Server {
  const server = new Server(PROXY_SERVER_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions: runtime.instructions(agentId),
  });
  server.setRequestHandler('tools/list', async () => {
    await runtime.ready();
    return { tools: runtime.listTools(agentId) };
  });
  server.setRequestHandler('tools/call', async (req, ctx) => {
    await runtime.ready();
    return runtime.callTool(agentId, req.params.name, req.params.arguments, {
      via: 'direct',
      client: clientName(server, ctx),
      session: ctx.sessionId,
      ...(ctx.mcpReq.signal ? { signal: ctx.mcpReq.signal } : {}),
      ...progressTo(ctx),
    });
  });
  return server;
}
