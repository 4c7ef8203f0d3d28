// The MCP wire constants both request paths share — the fast path (fastPath.ts) and the SDK path
// (agentServer.ts, endpoint.ts, passthrough.ts), and the edge in front of them — from one module, so
// the two paths cannot drift apart. The SDK's own names where it exports them; the 2026-07-28
// revision (the SDK's FIRST_MODERN_PROTOCOL_VERSION) and the header names it keeps internal.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';

export { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY };

/** The stateless revision: no session, an `_meta` envelope on every request, `Mcp-Method` headers. */
export const MODERN_REVISION = '2026-07-28';

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
