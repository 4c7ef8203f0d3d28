// What the rest of the core knows about an upstream: its status, era and tools, never its transport.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';

/** `revoked`: the upstream refuses our credentials (HTTP 401/403), so its tools leave every set. */
export type UpstreamStatus = 'connecting' | 'up' | 'down' | 'revoked';
export type UpstreamKind = 'http' | 'stdio' | 'builtin';

export type UpstreamInfo = {
  vendor: string;
  kind: UpstreamKind;
  status: UpstreamStatus;
  /** The protocol revision negotiated with it, when connected. */
  era: string | undefined;
  lastError: string | undefined;
};

export type CallOptions = { timeoutMs: number; signal?: AbortSignal };

export interface Upstream {
  readonly vendor: string;
  info(): UpstreamInfo;
  /** Lists tools within `budgetMs`, connecting (or re-opening an expired session) first when needed. */
  listTools(budgetMs: number): Promise<Tool[]>;
  /** Calls a tool once. Never retried: a call may have side effects. */
  callTool(name: string, args: Record<string, unknown> | undefined, opts: CallOptions): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** An upstream as status views show it: its info, how many tools it lists, and where they came from. */
export type UpstreamStatusView = UpstreamInfo & { toolCount: number; source: 'live' | 'file' | 'none' };
