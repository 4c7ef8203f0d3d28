// MCP wire details that several layers share (upstream connections, the SDK path, the fast path, the
// HTTP edge): one place for the revision string, the meta keys, header names and error codes, JSON-RPC
// error bodies and result `_meta` scrubbing, so the fast path and the SDK path cannot drift apart. The
// SDK's own names where it exports them; the revision (the SDK's FIRST_MODERN_PROTOCOL_VERSION) and the
// header names it keeps internal.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  isJsonContentType,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';

/** The stateless MCP revision (SDK v2): no session, an `_meta` envelope on every request, `Mcp-Method` headers. */
export const MODERN_REVISION = '2026-07-28';

/** Whether the SDK reads a body as JSON (any case, any parameters): what it parses, the edge bounds first. */
export { isJsonContentType };
export { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY };

/** Protocol versions of the 2025 session era (what a client sends after initialize). */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < MODERN_REVISION));

/** Every `_meta` key of the protocol itself starts so (they describe a hop, never pass through one). */
export const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';

/** The HTTP headers of the MCP transport, as Node spells them (lower case). */
export const MCP_HEADER = {
  protocolVersion: 'mcp-protocol-version',
  sessionId: 'mcp-session-id',
  method: 'mcp-method',
  name: 'mcp-name',
} as const;

/** JSON-RPC error codes: the protocol's, and the two server-defined ones the edge answers with. */
export const RPC_ERROR = {
  parse: ProtocolErrorCode.ParseError,
  invalidRequest: ProtocolErrorCode.InvalidRequest,
  internal: ProtocolErrorCode.InternalError,
  /** Refused at the edge: foreign Host or Origin, a body it will not read, a session request without a session. */
  refused: -32000,
  /** An agent's gate: a missing or wrong bearer token, an unknown session. */
  unauthorized: -32001,
} as const;

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
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith(PROTOCOL_META_PREFIX)));
  const { _meta: _, ...rest } = result;
  return (Object.keys(kept).length ? { ...rest, _meta: kept } : rest) as T;
}
