// The HTTP listener: loopback only unless exposure.ts allowed a network address. Every request passes
// the edge (edgeChain.ts) before any route sees it; what is left goes to the routes (routes.ts, on
// Hono) through the SDK's Node adapter, which builds the Web Request (with the body read at the edge,
// when it was) and bounds any other body to MAX_BODY_BYTES.
// No request may end the process: every parse is guarded, and whatever still throws in the request
// path is answered with a JSON-RPC error and logged.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { isLoopbackHost } from '../config/validate.js';
import { MwsError } from '../errors.js';
import type { Exposure } from './exposure.js';
import { BodyBudget, CapLog, EDGE_TIMES, limitConnections, HARD_MAX_CONNECTIONS, type EdgeTimes } from './edgeLimits.js';
import { fullCollector, idleCollector } from './garbage.js';
import { edgeChain, MAX_BODY_BYTES, sendJsonRpcError, type McpGate, type RouteHandler } from './edgeChain.js';
import { answerClientErrors, tlsFiles, tlsFront } from './frontDoor.js';
import type { Hono } from 'hono';
import type { Mounts, RouteEnv } from './routes.js';
import type { FastPath } from '../proxy/fastPath.js';
import { RPC_ERROR } from '../protocol.js';
import type { Logger } from '../log.js';

export { MAX_BODY_BYTES, type McpGate } from './edgeChain.js';

export type Listener = { url: string; port: number; close(): Promise<void> };

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
  /** /control's metadata (RFC 9728), when operators sign in through a provider. */
  controlMetadata?: (origin: string) => Record<string, unknown> | undefined;
};

/**
 * The routes, Hono and @modelcontextprotocol/node (with @hono/node-server under it), loaded by the
 * first request that needs them, not before the listener opens: `mws serve` listens sooner.
 */
function lazyRoutes(mounts: Mounts, log: Logger | undefined): RouteHandler {
  let loaded: Promise<[typeof import('@modelcontextprotocol/node').toNodeHandler, Hono<RouteEnv>]> | undefined;
  return async (req, res, body, agentId) => {
    loaded ??= Promise.all([import('@modelcontextprotocol/node'), import('./routes.js')]).then(([{ toNodeHandler }, { edgeApp }]) => [
      toNodeHandler,
      edgeApp(mounts, log),
    ]);
    const [toNodeHandler, app] = await loaded;
    // The adapter is a closure per request (this path is not the fast one): it hands the routes the agent the edge admitted.
    return toNodeHandler(
      { fetch: async (request) => app.fetch(request, { agentId }) },
      { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => log?.warn(`request failed inside the proxy: ${err.message}`) },
    )(req, res, body);
  };
}

export async function listen(host: string, port: number, mounts: Mounts, fast?: FastPath, opts: ListenOptions = {}): Promise<Listener> {
  const exposure = opts.exposure;
  if (!isLoopbackHost(host) && !exposure?.network) {
    throw new MwsError(
      'listen_refused',
      `Refusing to listen on ${host}: Working Set only listens on loopback (127.0.0.1, ::1 or localhost).`,
      { host },
    );
  }
  let boundPort = port;
  const caps = new CapLog(opts.log, opts.now);
  const times: EdgeTimes = { ...EDGE_TIMES, ...opts.edgeTimes };
  const tls = exposure?.tls ? tlsFiles(exposure.tls) : undefined;
  const dispatch = edgeChain({
    bodies: opts.bodyBudget ?? new BodyBudget(undefined, () => fullCollector.drained()),
    caps,
    port: () => boundPort,
    listenHost: host,
    tls: tls !== undefined,
    ...(exposure ? { exposure } : {}),
    ...(opts.mcpGate ? { mcpGate: opts.mcpGate } : {}),
    ...(opts.resourceMetadata ? { resourceMetadata: opts.resourceMetadata } : {}),
    ...(opts.controlMetadata ? { controlMetadata: opts.controlMetadata } : {}),
    ...(fast ? { fast } : {}),
    routes: lazyRoutes(mounts, opts.log),
  });
  // The safety net: a request the code above did not foresee is answered and logged, never fatal.
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // A connection over the cap has its 503 already; nothing more is written on it.
    if (refusedSockets.has(req.socket)) return;
    idleCollector.touch();
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
  const server: HttpServer = tls
    ? (createHttpsServer({ connectionsCheckingInterval: times.checkMs, ...tls }, onRequest) as unknown as HttpServer)
    : createServer({ connectionsCheckingInterval: times.checkMs }, onRequest);
  const refusedSockets = limitConnections(server, caps, times, tls ? 'secureConnection' : 'connection');
  answerClientErrors(server, caps, refusedSockets);
  const door = tls ? tlsFront(server, { host, port: () => boundPort, idleSocketMs: times.idleSocketMs, caps }) : undefined;
  const front: NetServer | HttpServer = door?.front ?? server;
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
        door?.destroyWaiting();
      }),
  };
}
