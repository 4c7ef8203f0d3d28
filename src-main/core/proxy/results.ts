// Shaping what goes back to agents: upstream `_meta` scrubbing.
import type { CallToolResult } from '@modelcontextprotocol/client';

/** Upstream identity keys (`io.modelcontextprotocol/serverInfo`, …) describe the upstream, not us. */
export function stripProtocolMeta(result: CallToolResult): CallToolResult {
  const meta = result._meta;
  if (!meta) return result;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith('io.modelcontextprotocol/')));
  const { _meta: _, ...rest } = result;
  return Object.keys(kept).length ? { ...rest, _meta: kept } : rest;
}
