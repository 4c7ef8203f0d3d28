// MCP wire details that several layers share (upstream connections, the SDK path, the fast path, the
// HTTP edge): one place for the revision string, JSON-RPC error bodies and result `_meta` scrubbing.

/** The stateless MCP revision (SDK v2); older revisions are the 2025 session protocol. */
export const MODERN_REVISION = '2026-07-28';

/** A JSON-RPC error message not tied to a request id (the request could not be read or routed). */
export function jsonRpcErrorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** The same as a fetch Response with its HTTP status. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(jsonRpcErrorBody(code, message), { status, headers: { 'content-type': 'application/json' } });
}

/** Upstream identity keys (`io.modelcontextprotocol/serverInfo`, …) describe the upstream, not us. */
export function stripProtocolMeta<T extends { _meta?: unknown }>(result: T): T {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (!meta) return result;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith('io.modelcontextprotocol/')));
  const { _meta: _, ...rest } = result;
  return (Object.keys(kept).length ? { ...rest, _meta: kept } : rest) as T;
}
