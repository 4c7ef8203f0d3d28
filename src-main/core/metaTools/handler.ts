// What every tool call carries (the MCP edge fills it in) and the shape of a meta-tool's handler.
import type { CallToolResult } from '@modelcontextprotocol/client';
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

/** Answers a meta-tool call other than call_tool; plugged in by the features that own them. */
export type MetaHandler = (agentId: string, args: Record<string, unknown>, ctx: CallContext) => Promise<CallToolResult>;
