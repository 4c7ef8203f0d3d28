// What every request passes before a route sees it, as a chain of small steps in the order they run:
// the shared body budget (edgeLimits.ts), Host/Origin/Sec-Fetch (guard.ts), protected-resource
// metadata, an agent's gate, then a bounded JSON read for MCP posts and the fast path
// (proxy/fastPath.ts). Each step answers the request itself (and says so) or lets the next one look.
// Steps that need no I/O stay synchronous: the common request never waits on the microtask queue.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuseForeign } from './guard.js';
import type { Exposure } from './exposure.js';
import { jsonSeparators, MAX_JSON_VALUES, TOO_MANY_VALUES } from './jsonBounds.js';
import { admitBody, lingerAfterAnswer, type BodyBudget, type CapLog } from './edgeLimits.js';
import { fullCollector } from './garbage.js';
import { agentIdOf, BAD_PATH } from './mcpPaths.js';
import type { GateRefusal } from './agentGate.js';
import { metadataAgentOf } from './protectedResource.js';
import { CONTROL_METADATA_PATH } from '../operators/controlMetadata.js';
import type { FastPath } from '../proxy/fastPath.js';
import { isJsonContentType, jsonRpcErrorBody, RPC_ERROR } from '../protocol.js';

/** Same bound the SDK applies to POST bodies. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Decides whether a request may reach an agent's endpoint (its bearer token, a switched-off default). */
export type McpGate = (
  agentId: string,
  authorization: string | undefined,
  /** The origin clients reach this listener at: the resource URL a token must name is made from it. */
  origin: string,
) => GateRefusal | undefined | Promise<GateRefusal | undefined>;

/**
 * The routes behind the edge (routes.ts through the SDK's Node adapter), with the body when it was
 * read here and the agent an MCP path names, as the gate judged it: parsed once, here.
 */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, body: unknown, agentId: string | undefined) => Promise<void>;

export type EdgeDeps = {
  bodies: BodyBudget;
  caps: CapLog;
  /** The port actually bound (known once listening): Host checks compare against it. */
  port: () => number;
  listenHost: string;
  tls: boolean;
  exposure?: Exposure;
  mcpGate?: McpGate;
  resourceMetadata?: (agentId: string, origin: string) => Record<string, unknown> | undefined;
  /** /control's RFC 9728 metadata when operators sign in through a provider. */
  controlMetadata?: (origin: string) => Record<string, unknown> | undefined;
  fast?: FastPath;
  routes: RouteHandler;
};

/** One request on its way through the chain; steps fill in what they learn for the steps after them. */
type Passing = { req: IncomingMessage; res: ServerResponse; pathname?: string; agentId?: string };
/** Answers the request and says `true`, or lets the next step look (`false`). */
type Step = (p: Passing, d: EdgeDeps) => boolean | Promise<boolean>;

export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, challenge?: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = jsonRpcErrorBody(code, message);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...(challenge ? { 'www-authenticate': challenge } : {}),
    })
    .end(body);
}

/** A path of letters, digits, `-`, `_` and `/` only (before any query): what WHATWG URL parsing leaves as it is. */
const PLAIN_PATH = /^\/[A-Za-z0-9_\-/]*(?=$|\?)/;

/** The request target's path as the WHATWG URL parser makes it (dot segments, percent-encoding). */
export function normalizedPath(target: string | undefined): string | undefined {
  if (!target?.startsWith('/')) return undefined;
  // Every request's path; parsing a URL took ~15 µs of a call's ~450 µs of CPU (bench/callOverhead profile).
  const plain = PLAIN_PATH.exec(target);
  if (plain) return plain[0];
  try {
    return new URL(`http://127.0.0.1${target}`).pathname;
  } catch {
    return undefined;
  }
}

/** The origin a client used: the public URL behind a proxy, else this listener's scheme and the (guarded) Host. */
function requestOrigin(req: IncomingMessage, d: EdgeDeps): string {
  if (d.exposure?.publicOrigin) return d.exposure.publicOrigin;
  return `${d.tls ? 'https' : 'http'}://${req.headers.host ?? '127.0.0.1'}`;
}

/** Every page may be framed by nothing (the window sets its full CSP itself). */
const noFraming: Step = ({ res }) => {
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('content-security-policy', "frame-ancestors 'none'");
  return false;
};

/** What reading this body costs is settled first, before any credential or route is looked at. */
const bodyAdmission: Step = ({ req, res }, d) => {
  const over = admitBody(req, res, d.bodies, MAX_BODY_BYTES, d.caps);
  if (!over) return false;
  res.shouldKeepAlive = false;
  lingerAfterAnswer(req, MAX_BODY_BYTES, () => fullCollector.drained());
  sendJsonRpcError(res, over.status, RPC_ERROR.refused, over.message);
  return true;
};

/**
 * Host and Origin next, before anything else of the request is parsed. The path is judged as the
 * routes will see it (URL-normalized: `/x/../mcp` and `/x/%2e%2e/mcp` are /mcp), so an agent's gate
 * judges the same endpoint the request reaches.
 */
const foreignRefusal: Step = (p, d) => {
  const { req, res } = p;
  p.pathname = normalizedPath(req.url);
  const network = d.exposure?.network ? { exposure: d.exposure, listenHost: d.listenHost, remote: req.socket.remoteAddress } : undefined;
  const refused = refuseForeign(req.method, req.headers, d.port(), p.pathname, network);
  if (refused) sendJsonRpcError(res, refused.status, RPC_ERROR.refused, refused.message);
  else if (p.pathname === undefined)
    sendJsonRpcError(res, 400, RPC_ERROR.invalidRequest, 'Bad request: the request target must be a path such as /mcp.');
  else return false;
  return true;
};

/** RFC 9728 metadata of an agent endpoint that signs in through an authorization server. */
const resourceMetadata: Step = ({ req, res, pathname }, d) => {
  const control = pathname === CONTROL_METADATA_PATH;
  const described = control ? undefined : metadataAgentOf(pathname!);
  if (described === undefined && !control) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJsonRpcError(res, 405, RPC_ERROR.invalidRequest, 'Protected-resource metadata is read with GET.');
    return true;
  }
  const origin = requestOrigin(req, d);
  const doc = control ? d.controlMetadata?.(origin) : described ? d.resourceMetadata?.(described, origin) : undefined;
  if (!doc) {
    sendJsonRpcError(
      res,
      404,
      RPC_ERROR.invalidRequest,
      control
        ? "Operators do not sign in through an identity provider here; use the control token or the window's one-time link (`mws ui`)."
        : "No agent endpoint here signs in through an authorization server; use the agent's bearer token, if it has one.",
    );
    return true;
  }
  const body = JSON.stringify(doc);
  res
    .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' })
    .end(req.method === 'HEAD' ? undefined : body);
  return true;
};

/** The agent a request names is parsed here, once, and checked against its gate. */
const agentGate: Step = (p, d) => {
  const agentId = agentIdOf(p.pathname!);
  if (agentId === null) {
    sendJsonRpcError(p.res, 400, RPC_ERROR.invalidRequest, BAD_PATH);
    return true;
  }
  if (agentId === undefined) return false;
  p.agentId = agentId;
  const gate = d.mcpGate?.(agentId, p.req.headers.authorization, requestOrigin(p.req, d));
  const answer = (denied: GateRefusal | undefined) => {
    if (denied) sendJsonRpcError(p.res, denied.status, RPC_ERROR.unauthorized, denied.message, denied.challenge);
    return denied !== undefined;
  };
  // Only a token checked against an authorization server waits.
  return gate instanceof Promise ? gate.then(answer) : answer(gate);
};

const STEPS: Step[] = [noFraming, bodyAdmission, foreignRefusal, resourceMetadata, agentGate];

/** The request handler: the steps above, then an MCP post through the fast path or the routes. */
export function edgeChain(d: EdgeDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const p: Passing = { req, res };
    for (const step of STEPS) {
      const answered = step(p, d);
      if (answered === true || (answered !== false && (await answered))) return;
    }
    const { agentId } = p;
    if (agentId === undefined || req.method !== 'POST' || !isJsonContentType(req.headers['content-type']))
      return d.routes(req, res, undefined, agentId);
    // Read here (bounded in bytes and in values) whether or not the fast path takes it.
    const read = await readJson(req, res);
    if (!read) return;
    if (d.fast && (await d.fast(req, res, read.body, agentId))) return;
    return d.routes(req, res, read.body, agentId);
  };
}

/** Reads a POST body as JSON; answers the client itself (and resolves `undefined`) when it cannot. */
function readJson(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('Request body too large.\n');
        req.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      const bytes = Buffer.concat(chunks);
      if (jsonSeparators(bytes) > MAX_JSON_VALUES) {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(jsonRpcErrorBody(RPC_ERROR.invalidRequest, TOO_MANY_VALUES));
        resolve(undefined);
        return;
      }
      try {
        resolve({ body: JSON.parse(bytes.toString('utf8')) });
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(jsonRpcErrorBody(RPC_ERROR.parse, 'Parse error: the request body is not valid JSON.'));
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}
