// The HTTP listener: loopback only, Host/Origin checked, `/mcp` for the default agent and
// `/mcp/<agent-id>` for the others. Other paths are mounted by the app (control, ui).
// No request may end the process: every parse is guarded, and whatever still throws in the request
// path is answered with a JSON-RPC error and logged.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_AGENT_ID } from '../config/schema.js';
import { isLoopbackHost } from '../config/validate.js';
import { MwsError } from '../errors.js';
import { refuseForeign } from './guard.js';
import { jsonSeparators, MAX_JSON_VALUES, TOO_MANY_VALUES } from './jsonBounds.js';
import { admitBody, BodyBudget, CapLog, EDGE_TIMES, floodCollector, endAndClose, limitConnections, TIMEOUT_ANSWER, type EdgeTimes } from './edgeLimits.js';
import type { FastPath } from './fastPath.js';
import type { Logger } from '../log.js';

/** Same bound the SDK applies to POST bodies. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MCP_PATH = /^\/mcp(?:\/([^/?#]+))?\/?(?:\?.*)?$/;

type SdkHandler = ReturnType<typeof import('@modelcontextprotocol/node').toNodeHandler>;

export type Route = (request: Request, url: URL) => Promise<Response> | undefined;

export type McpRouter = {
  endpoint(agentId: string): { handle(request: Request): Promise<Response> } | undefined;
};

export function text(status: number, body: string): Response {
  return new Response(body + '\n', { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** The agent an MCP path names; undefined when it is no MCP path; null when its escapes are malformed (`/mcp/%`). */
export function agentIdOf(path: string): string | null | undefined {
  const m = MCP_PATH.exec(path);
  if (!m) return undefined;
  if (!m[1]) return DEFAULT_AGENT_ID;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

import { jsonRpcError as jsonRpcResponse, jsonRpcErrorBody } from '../protocol.js';

const BAD_PATH = 'Bad request: the path has a malformed %-escape. The MCP endpoint is /mcp (or /mcp/<agent-id>).';

export function mcpRoute(router: McpRouter): Route {
  return (request, url) => {
    const agentId = agentIdOf(url.pathname);
    if (agentId === undefined) return undefined;
    if (agentId === null) return Promise.resolve(jsonRpcResponse(400, -32600, BAD_PATH));
    const endpoint = router.endpoint(agentId);
    if (!endpoint) {
      return Promise.resolve(text(404, `No agent ${JSON.stringify(agentId.slice(0, 64))} is configured here. Add it under "agents" in the config, or use /mcp for the default agent.`));
    }
    return endpoint.handle(request);
  };
}

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
        res.end(jsonRpcErrorBody(-32600, TOO_MANY_VALUES));
        resolve(undefined);
        return;
      }
      try {
        resolve({ body: JSON.parse(bytes.toString('utf8')) });
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(jsonRpcErrorBody(-32700, 'Parse error: the request body is not valid JSON.'));
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}

/** Decides whether a request may reach an agent's endpoint (its bearer token, a switched-off default). */
export type McpGate = (agentId: string, authorization: string | undefined) => { status: number; message: string } | undefined;

export type ListenOptions = { log?: Logger; mcpGate?: McpGate; now?: () => number; bodyBudget?: BodyBudget; edgeTimes?: Partial<EdgeTimes> };

function normalizedPath(target: string | undefined): string | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    return new URL(`http://127.0.0.1${target}`).pathname;
  } catch {
    return undefined;
  }
}

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = jsonRpcErrorBody(code, message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

export async function listen(host: string, port: number, routes: Route[], fast?: FastPath, opts: ListenOptions = {}): Promise<Listener> {
  if (!isLoopbackHost(host)) {
    throw new MwsError('listen_refused', `Refusing to listen on ${host}: Working Set only listens on loopback (127.0.0.1, ::1 or localhost).`, { host });
  }
  const fetchRoutes = async (request: Request) => {
    const url = new URL(request.url);
    for (const route of routes) {
      const res = route(request, url);
      if (res) return res;
    }
    return text(404, `Nothing at ${JSON.stringify(url.pathname.slice(0, 200))}. The MCP endpoint is /mcp (or /mcp/<agent-id>).`);
  };
  // @modelcontextprotocol/node (and @hono/node-server under it) is loaded by the first request that
  // needs the SDK's handler, not before the listener opens: ~20 ms less before `mws serve` listens.
  let sdkHandler: Promise<SdkHandler> | undefined;
  const handler: SdkHandler = async (req, res, body) => {
    sdkHandler ??= import('@modelcontextprotocol/node').then(({ toNodeHandler }) => toNodeHandler({ fetch: fetchRoutes }, { onerror: (err) => opts.log?.warn(`request failed inside the proxy: ${err.message}`) }));
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
      return sendJsonRpcError(res, over.status, -32000, over.message);
    }
    // The path as the routes will see it (URL-normalized: `/x/../mcp` and `/x/%2e%2e/mcp` are /mcp),
    // so the agent's gate below judges the same endpoint the request reaches.
    const pathname = normalizedPath(req.url);
    // Host and Origin next, before anything else of the request is parsed.
    const refused = refuseForeign(req.method, req.headers, boundPort, pathname);
    if (refused) return sendJsonRpcError(res, refused.status, -32000, refused.message);
    if (pathname === undefined) return sendJsonRpcError(res, 400, -32600, 'Bad request: the request target must be a path such as /mcp.');
    const agentId = agentIdOf(pathname);
    if (agentId === null) return sendJsonRpcError(res, 400, -32600, BAD_PATH);
    if (agentId !== undefined) {
      const denied = opts.mcpGate?.(agentId, req.headers.authorization);
      if (denied) return sendJsonRpcError(res, denied.status, -32001, denied.message);
    }
    if (agentId === undefined || req.method !== 'POST' || !req.headers['content-type']?.startsWith('application/json')) return handler(req, res);
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
      opts.log?.warn(`request ${req.method ?? '?'} ${JSON.stringify((req.url ?? '').slice(0, 200))} failed inside the proxy: ${(err as Error)?.message ?? String(err)}`);
      try {
        sendJsonRpcError(res, 500, -32603, 'Internal error in Working Set while handling this request; it was logged. The proxy keeps running.');
      } catch {
        res.destroy();
      }
    });
  };
  const times: EdgeTimes = { ...EDGE_TIMES, ...opts.edgeTimes };
  const server: HttpServer = createServer({ connectionsCheckingInterval: times.checkMs }, onRequest);
  const refusedSockets = limitConnections(server, caps, times);
  // A request Node's parser refuses (bad framing, oversized headers) never reaches `onRequest`;
  // it still gets a status and a sentence, as every other answer does.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // A response already under way on this socket must not get raw bytes in its middle (as Node's own handler).
    const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent || refusedSockets.has(socket as never)) return void socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      caps.hit('timeout', 'closed a request that did not arrive whole in time (a slow or stalled client?).');
      return endAndClose(socket, TIMEOUT_ANSWER);
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    // An answer to HEAD carries no body, or the client reads it as the start of the next response.
    const head = err.rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
    const body = head ? '' : tooLarge ? 'Request headers too large (over 16 KB). A browser may hold too many cookies for this host: clear them, or open the window under another loopback name (localhost, 127.0.0.1 or [::1]).\n' : 'Bad request: the HTTP request is malformed.\n';
    endAndClose(socket, `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new MwsError('listen_refused', `Port ${port} on ${host} is already in use. Stop the other process or pass --port.`, { host, port })
          : err,
      );
    });
    server.listen(port, host, () => resolve());
  });
  // After listening, an error of the server (EMFILE at accept when the process is out of file
  // handles) is logged, never fatal; the caps above keep it rare.
  server.on('error', (err: NodeJS.ErrnoException) => caps.hit(`server-${err.code ?? 'error'}`, `the listener could not accept a connection: ${err.message}`));
  const addr = server.address() as AddressInfo;
  boundPort = addr.port;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}`,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
