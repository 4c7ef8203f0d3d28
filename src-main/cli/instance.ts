// Reaching a running instance: the CLI prefers the live proxy (its catalog, its working sets) and
// falls back to working from the config alone when nothing answers on the configured port.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Config } from '../core/config/schema.js';
import { DEFAULT_AGENT_ID } from '../core/config/schema.js';

/** How long to wait for a running instance before working without one. */
export const INSTANCE_PROBE_MS = 1500;

export function agentUrl(config: Config, agentId: string): string {
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  return `http://${host}:${config.listen.port}/mcp${agentId === DEFAULT_AGENT_ID ? '' : `/${encodeURIComponent(agentId)}`}`;
}

/** Calls a tool on the running instance as `agentId`; undefined when no instance answers. */
export async function callRunning(config: Config, agentId: string, name: string, args: Record<string, unknown>): Promise<CallToolResult | undefined> {
  const client = new Client({ name: 'mws-cli', version: '0.1.0' }, { versionNegotiation: { mode: 'auto' } });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(agentUrl(config, agentId))), { timeout: INSTANCE_PROBE_MS });
  } catch {
    return undefined;
  }
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close().catch(() => {});
  }
}
