// The contract between the MCP edge (endpoints, listener) and the core that decides what agents see.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { DownstreamPeer } from '../upstream/types.js';

export type CallVia = 'direct' | 'call_tool';

export type CallContext = {
  via: CallVia;
  /** Client name from the request envelope or the 2025 handshake, else the HTTP User-Agent. */
  client: string;
  /** The MCP session where the protocol has one (2025 era); undefined for stateless clients. */
  session: string | undefined;
  signal?: AbortSignal;
  /** The calling client: progress, log messages and the upstream's sampling/elicitation/roots go back to it. */
  peer?: DownstreamPeer;
  /** Progress to the client for this request, when it sent a progress token (keeps it from timing out). */
  progress?: (progress: number, total: number | undefined, message: string) => void;
};

export interface AgentRuntime {
  /** Resolves once the first catalog load has finished (or timed out). */
  ready(): Promise<void>;
  hasAgent(agentId: string): boolean;
  listTools(agentId: string): Tool[];
  callTool(agentId: string, name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult>;
  instructions(agentId: string): string;
}
