// The HTTP listener: loopback only, and every request passes the edge before any route sees it — the
// shared body budget (edgeLimits.ts), Host/Origin/Sec-Fetch (guard.ts), an agent's gate, a bounded JSON
// read for MCP posts and the fast path (proxy/fastPath.ts). What is left goes to the routes
// (routes.ts, on Hono) through the SDK's Node adapter, which builds the Web Request (with the body
// read here, when it was) and bounds any other body to MAX_BODY_BYTES.
// No request may end the process: every parse is guarded, and whatever still throws in the request
// path is answered with a JSON-RPC error and logged.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { isLoopbackHost } from '../config/validate.js';
import { MwsError } from '../errors.js';
import { refuseForeign } from './guard.js';
import type { Exposure } from './exposure.js';
import { jsonSeparators, MAX_JSON_VALUES, TOO_MANY_VALUES } from './jsonBounds.js';
import {
  admitBody,
  BodyBudget,
  CapLog,
  EDGE_TIMES,
  floodCollector,
  endAndClose,
  limitConnections,
  lingerAfterAnswer,
  HARD_MAX_CONNECTIONS,
  rawAnswer,
  TIMEOUT_ANSWER,
  type EdgeTimes,
} from './edgeLimits.js';
import { agentIdOf, BAD_PATH } from './mcpPaths.js';
import type { GateRefusal } from './agentGate.js';
import { metadataAgentOf } from './protectedResource.js';
import type { Mounts } from './routes.js';
import type { FastPath } from '../proxy/fastPath.js';
import { isJsonContentType, jsonRpcErrorBody, RPC_ERROR } from '../protocol.js';
import type { Logger } from '../log.js';

/** Same bound the SDK applies to POST bodies. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

type SdkHandler = ReturnType<typeof import('@modelcontextprotocol/node').toNodeHandler>;

export type Listener = { url: string; port: number; close(): Promise<void> };

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

/** Decides whether a request may reach an agent's endpoint (its bearer token, a switched-off default). */
export type McpGate = (
  agentId: string,
  authorization: string | undefined,
  /** The origin clients reach this listener at: the resource URL a token must name is made from it. */
  origin: string,
) => GateRefusal | undefined | Promise<GateRefusal | undefined>;

export type ListenOptions = {
  log?: Logger;
  mcpGate?: McpGate;
  now?: () => number;
  bodyBudget?: BodyBudget;
  edgeTimes?: Partial<EdgeTimes>;
  /** From exposure.ts's decision; without it only loopback is served, over plain HTTP. */
  exposure?: Exposure;
  /** An agent endpoint's protected-resource metadata (RFC 9728), when it signs in through an authorization server. */
  resourceMetadata?: (agentId: string, origin: string) => Record<string, unknown> | undefined;
};

function normalizedPath(target: string | undefined): string | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    return new URL(`http://127.0.0.1${target}`).pathname;
  } catch {
    return undefined;
  }
}

function shownName(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, challenge?: string): void {
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

/** The origin a client used: the public URL behind a proxy, else this listener's scheme and the (guarded) Host. */
function requestOrigin(req: IncomingMessage, exposure: Exposure | undefined, tls: boolean): string {
  if (exposure?.publicOrigin) return exposure.publicOrigin;
  return `${tls ? 'https' : 'http'}://${req.headers.host ?? '127.0.0.1'}`;
}

/** The certificate and key, or a sentence naming the file that could not be read. */
function tlsFiles(tls: { cert: string; key: string }): { cert: Buffer; key: Buffer } {
  const read = (what: 'cert' | 'key') => {
    try {
      return readFileSync(tls[what]);
    } catch (err) {
      throw new MwsError(
        'listen_refused',
        `Cannot serve HTTPS: "listen.tls.${what}" (${tls[what]}) cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Give the path of a PEM file this user can read.`,
        { path: tls[what] },
      );
    }
  };
  return { cert: read('cert'), key: read('key') };
}

/** The first byte of a TLS connection is a handshake record (22); anything else is plain HTTP or noise. */
const TLS_HANDSHAKE = 0x16;

export async function listen(host: string, port: number, mounts: Mounts, fast?: FastPath, opts: ListenOptions = {}): Promise<Listener> {
  const exposure = opts.exposure;
  if (!isLoopbackHost(host) && !exposure?.network) {
    throw new MwsError(
      'listen_refused',
      `Refusing to listen on ${host}: Working Set only listens on loopback (127.0.0.1, ::1 or localhost).`,
      { host },
    );
  }
  // The routes, Hono and @modelcontextprotocol/node (with @hono/node-server under it) are loaded by the
  // first request that needs them, not before the listener opens: ~20 ms less before `mws serve` listens.
  let sdkHandler: Promise<SdkHandler> | undefined;
  const handler: SdkHandler = async (req, res, body) => {
    sdkHandler ??= Promise.all([import('@modelcontextprotocol/node'), import('./routes.js')]).then(([{ toNodeHandler }, { edgeApp }]) => {
      const app = edgeApp(mounts, opts.log);
      return toNodeHandler(
        { fetch: async (request) => app.fetch(request) },
        { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => opts.log?.warn(`request failed inside the proxy: ${err.message}`) },
      );
    });
    return (await sdkHandler)(req, res, body);
  };
  let boundPort = port;
  const caps = new CapLog(opts.log, opts.now);
  const bodies = opts.bodyBudget ?? new BodyBudget(undefined, () => floodCollector.drained());
  const dispatch = async (req: IncomingMessage, res: ServerResponse) => {
    // Every page may be framed by nothing (the window sets its full CSP itself).
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('content-security-policy', "frame-ancestors 'none'");
    // What reading this body costs is settled first, before any credential or route is looked at.
    const over = admitBody(req, res, bodies, MAX_BODY_BYTES, caps);
    if (over) {
      res.shouldKeepAlive = false;
      lingerAfterAnswer(req, MAX_BODY_BYTES, () => floodCollector.drained());
      return sendJsonRpcError(res, over.status, RPC_ERROR.refused, over.message);
    }
    // The path as the routes will see it (URL-normalized: `/x/../mcp` and `/x/%2e%2e/mcp` are /mcp),
    // so the agent's gate below judges the same endpoint the request reaches.
    const pathname = normalizedPath(req.url);
    // Host and Origin next, before anything else of the request is parsed.
    const refused = refuseForeign(
      req.method,
      req.headers,
      boundPort,
      pathname,
      exposure?.network ? { exposure, listenHost: host, remote: req.socket.remoteAddress } : undefined,
    );
    if (refused) return sendJsonRpcError(res, refused.status, RPC_ERROR.refused, refused.message);
    if (pathname === undefined)
      return sendJsonRpcError(res, 400, RPC_ERROR.invalidRequest, 'Bad request: the request target must be a path such as /mcp.');
    const described = metadataAgentOf(pathname);
    if (described !== undefined) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendJsonRpcError(res, 405, RPC_ERROR.invalidRequest, 'Protected-resource metadata is read with GET.');
      const doc = described === null ? undefined : opts.resourceMetadata?.(described, requestOrigin(req, exposure, tls !== undefined));
      if (!doc)
        return sendJsonRpcError(
          res,
          404,
          RPC_ERROR.invalidRequest,
          "No agent endpoint here signs in through an authorization server; use the agent's bearer token, if it has one.",
        );
      const body = JSON.stringify(doc);
      return void res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' })
        .end(req.method === 'HEAD' ? undefined : body);
    }
    const agentId = agentIdOf(pathname);
    if (agentId === null) return sendJsonRpcError(res, 400, RPC_ERROR.invalidRequest, BAD_PATH);
    if (agentId !== undefined) {
      const gate = opts.mcpGate?.(agentId, req.headers.authorization, requestOrigin(req, exposure, tls !== undefined));
      // Only a token checked against an authorization server waits; the rest stays off the microtask queue.
      const denied = gate instanceof Promise ? await gate : gate;
      if (denied) return sendJsonRpcError(res, denied.status, RPC_ERROR.unauthorized, denied.message, denied.challenge);
    }
    if (agentId === undefined || req.method !== 'POST' || !isJsonContentType(req.headers['content-type'])) return handler(req, res);
    // Read here (bounded in bytes and in values) whether or not the fast path takes it.
    const read = await readJson(req, res);
    if (!read) return;
    if (fast && (await fast(req, res, read.body, agentId))) return;
    return handler(req, res, read.body);
  };
  // The safety net: a request the code above did not foresee is answered and logged, never fatal.
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // A connection over the cap has its 503 already; nothing more is written on it.
    if (refusedSockets.has(req.socket)) return;
    dispatch(req, res).catch((err: unknown) => {
      opts.log?.warn(
        `request ${req.method ?? '?'} ${JSON.stringify((req.url ?? '').slice(0, 200))} failed inside the proxy: ${(err as Error)?.message ?? String(err)}`,
      );
      try {
        sendJsonRpcError(
          res,
          500,
          RPC_ERROR.internal,
          'Internal error in Working Set while handling this request; it was logged. The proxy keeps running.',
        );
      } catch {
        res.destroy();
      }
    });
  };
  const times: EdgeTimes = { ...EDGE_TIMES, ...opts.edgeTimes };
  const tls = exposure?.tls ? tlsFiles(exposure.tls) : undefined;
  const server: HttpServer = tls
    ? (createHttpsServer({ connectionsCheckingInterval: times.checkMs, ...tls }, onRequest) as unknown as HttpServer)
    : createServer({ connectionsCheckingInterval: times.checkMs }, onRequest);
  const refusedSockets = limitConnections(server, caps, times, tls ? 'secureConnection' : 'connection');
  // A request Node's parser refuses (bad framing, oversized headers) never reaches `onRequest`;
  // it still gets a status and a sentence, as every other answer does.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // A response already under way on this socket must not get raw bytes in its middle (as Node's own handler).
    const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent || refusedSockets.has(socket as never))
      return void socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      caps.hit('timeout', 'closed a request that did not arrive whole in time (a slow or stalled client?).');
      return endAndClose(socket, TIMEOUT_ANSWER);
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    // An answer to HEAD carries no body, or the client reads it as the start of the next response.
    const head = err.rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
    const body = head
      ? ''
      : tooLarge
        ? 'Request headers too large (over 16 KB). A browser may hold too many cookies for this host: clear them, or open the window under another loopback name (localhost, 127.0.0.1 or [::1]).\n'
        : 'Bad request: the HTTP request is malformed.\n';
    endAndClose(
      socket,
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  // With TLS a plain socket listens in front: a first byte that starts no TLS handshake (plain HTTP
  // sent to the HTTPS port) is answered in plain HTTP with what to use instead, never left to hang.
  const waiting = new Set<Socket>();
  const front: NetServer | HttpServer = tls
    ? createNetServer((socket) => {
        waiting.add(socket);
        socket.on('error', () => socket.destroy());
        socket.setTimeout(times.idleSocketMs, () => socket.destroy());
        socket.once('close', () => waiting.delete(socket));
        socket.once('data', (first: Buffer) => {
          waiting.delete(socket);
          socket.setTimeout(0);
          socket.pause();
          socket.unshift(first);
          if (first[0] === TLS_HANDSHAKE) return void server.emit('connection', socket);
          caps.hit('plain-http', 'answered a plain HTTP request sent to the HTTPS port.');
          endAndClose(
            socket,
            rawAnswer(
              '400 Bad Request',
              `This port speaks HTTPS only: use https://${shownName(host)}:${boundPort}/ (plain HTTP is not served here).`,
            ),
          );
        });
      })
    : server;
  if (tls) (front as NetServer).maxConnections = HARD_MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    front.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new MwsError('listen_refused', `Port ${port} on ${host} is already in use. Stop the other process or pass --port.`, {
              host,
              port,
            })
          : err,
      );
    });
    front.listen(port, host, () => resolve());
  });
  // After listening, an error of the server (EMFILE at accept when the process is out of file
  // handles) is logged, never fatal; the caps above keep it rare.
  front.on('error', (err: NodeJS.ErrnoException) =>
    caps.hit(`server-${err.code ?? 'error'}`, `the listener could not accept a connection: ${err.message}`),
  );
  const addr = front.address() as AddressInfo;
  boundPort = addr.port;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost}:${addr.port}`,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve());
        if (front !== server) server.close();
        server.closeAllConnections();
        for (const s of waiting) s.destroy();
      }),
  };
}
