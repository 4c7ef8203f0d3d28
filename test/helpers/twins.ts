// In-memory twins of the core's edges, for unit tests.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { CallOptions, Upstream, UpstreamInfo } from '../../src-main/core/upstream/types.js';

/** An upstream whose tools and health a test sets by hand. */
export class TwinUpstream implements Upstream {
  tools: Tool[];
  failing = false;
  calls: Array<{ name: string; args: unknown }> = [];
  constructor(
    readonly vendor: string,
    tools: Tool[],
  ) {
    this.tools = tools;
  }
  info(): UpstreamInfo {
    return { vendor: this.vendor, kind: 'http', status: this.failing ? 'down' : 'up', era: '2026-07-28', lastError: undefined };
  }
  async listTools(): Promise<Tool[]> {
    if (this.failing) throw new Error('down');
    return this.tools;
  }
  async callTool(name: string, args: Record<string, unknown> | undefined, _opts: CallOptions): Promise<CallToolResult> {
    this.calls.push({ name, args });
    return { content: [{ type: 'text', text: `${this.vendor}:${name}` }] };
  }
  async close(): Promise<void> {}
}

export const twinTool = (name: string, readOnly = true): Tool => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: readOnly },
});
