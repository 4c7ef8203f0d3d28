// A fast path for the two requests that carry nearly all traffic — well-formed `tools/call` and
// `tools/list`, from 2026-07-28 clients and from 2025 clients inside a live session — answered
// straight from the Node request. Anything it does not fully recognize returns false and goes to the
// SDK handler, which owns every validation error (and initialize, notifications, GET streams).
// Why: the SDK's per-request path (Web Request conversion, a Server per request, schema parsing)
// costs more than the rest of the proxy's part of a call; this one costs a JSON.parse and a write. A test checks both answer alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ProtocolError,
  ProtocolErrorCode,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY as CLIENT_CAPABILITIES_KEY,
  CLIENT_INFO_META_KEY as CLIENT_INFO_KEY,
  LEGACY_VERSIONS,
  LOG_LEVEL_META_KEY as LOG_LEVEL_KEY,
  MCP_HEADER,
  MODERN_REVISION,
  PROTOCOL_VERSION_META_KEY as PROTOCOL_VERSION_KEY,
} from '../protocol.js';
import { directCall, passivePeer } from './caller.js';
import { callResult, listResultAround } from './results.js';
import type { AgentRuntime } from './runtime.js';
import type { DownstreamPeer } from '../upstream/types.js';
import { isPlainObject } from '../../shared/plainObject.js';

const HOSTS = localhostAllowedHostnames();
const ORIGINS = localhostAllowedOrigins();

/**
 * The SDK's Host verdict by header value. It depends on the value alone, and a listener is reached
 * under a few; working it out (a WHATWG URL parse) was ~2 % of a call's CPU. Emptied when full:
 * Host values are the client's to choose.
 */
const hostVerdicts = new Map<string | undefined, boolean>();
const HOST_VERDICTS_MAX = 64;

function hostAllowed(host: string | undefined): boolean {
  let ok = hostVerdicts.get(host);
  if (ok === undefined) {
    if (hostVerdicts.size >= HOST_VERDICTS_MAX) hostVerdicts.clear();
    hostVerdicts.set(host, (ok = validateHostHeader(host, HOSTS).ok));
  }
  return ok;
}

type Rpc = { jsonrpc: '2.0'; id: string | number; method: string; params: Record<string, unknown> };
/** A request the fast path answers; `session` for a 2025 client, whose reply has no 2026 envelope. */
type Eligible = { rpc: Rpc; session: string | undefined };

/** A live 2025 session of an agent, as the endpoint holding it knows it; undefined when unknown. */
export type LegacySessionLookup = (agentId: string, sessionId: string) => { client: string | undefined } | undefined;

/** The request, when it is one the fast path answers exactly as the SDK would; otherwise undefined. */
function eligible(req: IncomingMessage, body: unknown): Eligible | undefined {
  const h = req.headers;
  const version = h[MCP_HEADER.protocolVersion];
  const sid = h[MCP_HEADER.sessionId];
  const legacy = typeof sid === 'string' && typeof version === 'string' && LEGACY_VERSIONS.has(version);
  if (version !== MODERN_REVISION && !legacy) return undefined;
  if (!h['content-type']?.startsWith('application/json')) return undefined;
  if (!h.accept?.includes('application/json')) return undefined;
  // A 2025 session's transport refuses a client that does not also accept an event stream.
  if (legacy && !h.accept.includes('text/event-stream')) return undefined;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return undefined;
  const { id, method } = body;
  const params = body.params === undefined && legacy ? {} : body.params;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isPlainObject(params)) return undefined;
  if (method !== 'tools/call' && method !== 'tools/list') return undefined;
  const meta = params._meta;
  if (legacy) {
    // 2025 requests carry no envelope; a _meta (a progress token, say) is the SDK's to handle.
    if (meta !== undefined) return undefined;
  } else {
    if (h[MCP_HEADER.method] !== method) return undefined;
    if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_KEY] !== MODERN_REVISION || !isPlainObject(meta[CLIENT_INFO_KEY])) return undefined;
    // A caller asking for progress or log messages gets the SDK path, which can stream notifications back.
    if (meta.progressToken !== undefined || meta[LOG_LEVEL_KEY] !== undefined) return undefined;
  }
  if (method === 'tools/list') {
    if (Object.keys(params).some((k) => k !== '_meta')) return undefined; // cursors and the like: SDK path
  } else {
    if (typeof params.name !== 'string' || (!legacy && h[MCP_HEADER.name] !== params.name)) return undefined;
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
    if (Object.keys(params).some((k) => k !== '_meta' && k !== 'name' && k !== 'arguments')) return undefined;
  }
  if (!hostAllowed(h.host)) return undefined;
  if (h.origin !== undefined && !validateOriginHeader(h.origin, ORIGINS).ok) return undefined;
  return { rpc: { jsonrpc: '2.0', id, method, params } as Rpc, session: legacy ? sid : undefined };
}

/** A 2025 session only comes this way when its client declared no sampling, elicitation or roots (endpoint.ts). */
const LEGACY_PEER = passivePeer(false);

/**
 * Each listed tool's JSON, kept once per tool object. Agents listing the same tool share the object
 * (Toolbox.listed) and so its text: a hundred agents' listings cost the toolbox's text once, not a
 * copy per agent. A listing is joined from these pieces per request (a copy the answer needs anyway).
 */
const toolJson = new WeakMap<object, string>();

/** The listed tools' JSON between the array's brackets, as one flat string (join's, or the one tool's own). */
function listingJoined(tools: readonly object[]): string {
  const parts = new Array<string>(tools.length);
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    let j = toolJson.get(t);
    if (j === undefined) toolJson.set(t, (j = JSON.stringify(t)));
    parts[i] = j;
  }
  return parts.join(',');
}

function send(res: ServerResponse, payload: unknown, session?: string): void {
  sendPieces(res, [JSON.stringify(payload)], session);
}

/**
 * An answer written as the pieces it is made of. A listing of 500 tools is ~350 KB: put together with
 * its envelope it was a string of pieces that measuring its length copied into one, a second copy of
 * the listing per request (three times the collections, docs/research/measured.md); written piece by
 * piece, nothing is copied before the socket's encoding (the pieces go out in one writev: the first
 * write corks the socket and end() uncorks it).
 */
function sendPieces(res: ServerResponse, pieces: readonly string[], session?: string): void {
  let length = 0;
  for (const p of pieces) length += Buffer.byteLength(p);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': length };
  if (session !== undefined) headers[MCP_HEADER.sessionId] = session;
  res.writeHead(200, headers);
  for (let i = 0; i < pieces.length - 1; i++) res.write(pieces[i]!);
  res.end(pieces[pieces.length - 1]);
}

export type FastPath = (req: IncomingMessage, res: ServerResponse, body: unknown, agentId: string) => Promise<boolean>;

export function createFastPath(runtime: AgentRuntime, accepting: () => boolean = () => true, sessions?: LegacySessionLookup): FastPath {
  /** Calls of 2025 sessions in flight here, by agent, session and request id: their cancellation arrives as its own POST. */
  const inflight = new Map<string, AbortController>();
  const key = (agentId: string, session: string, id: unknown) => `${agentId}\0${session}\0${JSON.stringify(id)}`;
  return async (req, res, body, agentId) => {
    const sid = req.headers[MCP_HEADER.sessionId];
    if (typeof sid === 'string' && isPlainObject(body) && body.method === 'notifications/cancelled' && isPlainObject(body.params)) {
      // The session's SDK transport never saw this request: abort it here, and let the SDK answer the POST.
      inflight.get(key(agentId, sid, body.params.requestId))?.abort();
      return false;
    }
    const e = eligible(req, body);
    if (!e || !runtime.hasAgent(agentId) || !accepting()) return false;
    const { rpc, session } = e;
    const meta = rpc.params._meta as Record<string, unknown> | undefined;
    let sessionClient: unknown;
    if (session !== undefined) {
      // Only a session this agent's endpoint holds: an unknown or expired one gets the SDK's 404.
      const live = sessions?.(agentId, session);
      if (!live) return false;
      sessionClient = live.client;
    }
    await runtime.ready();
    try {
      if (rpc.method === 'tools/list') {
        const tools = runtime.listTools(agentId);
        const [before, after] = listResultAround(session !== undefined ? 'session' : 'stateless');
        sendPieces(
          res,
          [`{"result":${before}[`, listingJoined(tools), `]${after},"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)}}`],
          session,
        );
        return true;
      }
      const abort = new AbortController();
      const onClose = () => abort.abort();
      res.once('close', onClose);
      const callKey = session !== undefined ? key(agentId, session, rpc.id) : undefined;
      if (callKey) inflight.set(callKey, abort);
      let answer: Awaited<ReturnType<AgentRuntime['callTool']>>;
      try {
        answer = await runtime.callTool(
          agentId,
          rpc.params.name as string,
          rpc.params.arguments as Record<string, unknown> | undefined,
          directCall({
            envelopeClient: (meta?.[CLIENT_INFO_KEY] as { name?: unknown } | undefined)?.name,
            sessionClient,
            userAgent: req.headers['user-agent'],
            session,
            signal: abort.signal,
            peer: meta ? passivePeer(true, (meta[CLIENT_CAPABILITIES_KEY] ?? {}) as DownstreamPeer['capabilities']) : LEGACY_PEER,
          }),
        );
      } finally {
        res.off('close', onClose);
        if (callKey) inflight.delete(callKey);
      }
      send(res, { result: callResult(answer, session !== undefined ? 'session' : 'stateless'), jsonrpc: '2.0', id: rpc.id }, session);
    } catch (err) {
      const e = err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, (err as Error).message);
      send(
        res,
        { jsonrpc: '2.0', id: rpc.id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } },
        session,
      );
    }
    return true;
  };
}
