// The contract between the MCP edge (endpoints, listener) and the core that decides what agents see.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { CallContext } from '../metaTools/handler.js';

export type { CallContext, CallVia } from '../metaTools/handler.js';

export interface AgentRuntime {
  /** Resolves once the first catalog load has finished (or timed out). */
  ready(): Promise<void>;
  hasAgent(agentId: string): boolean;
  listTools(agentId: string): Tool[];
  callTool(agentId: string, name: string, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<CallToolResult>;
  instructions(agentId: string): string;
}
