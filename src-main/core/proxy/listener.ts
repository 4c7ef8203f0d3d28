// The HTTP listener: loopback only, Host/Origin checked, `/mcp` for the default agent and
// `/mcp/<agent-id>` for the others. Other paths are mounted by the app (control, ui).
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { DEFAULT_AGENT_ID } from '../config/schema.js';
import { isLoopbackHost } from '../config/validate.js';
import { MwsError } from '../errors.js';
import { refuseForeign } from './guard.js';
import type { FastPath } from './fastPath.js';

/** Same bound the SDK applies to POST bodies. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MCP_PATH = /^\/mcp(?:\/([^/?#]+))?\/?(?:\?.*)?$/;

export type Route = (request: Request, url: URL) => Promise<Response> | undefined;

export type McpRouter = {
  endpoint(agentId: string): { handle(request: Request): Promise<Response> } | undefined;
};

export function text(status: number, body: string): Response {
  return new Response(body + '\n', { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

export function agentIdOf(path: string): string | undefined {
  const m = MCP_PATH.exec(path);
  if (!m) return undefined;
  return m[1] ? decodeURIComponent(m[1]) : DEFAULT_AGENT_ID;
}

export function mcpRoute(router: McpRouter): Route {
  return (request, url) => {
    const m = MCP_PATH.exec(url.pathname);
    if (!m) return undefined;
    const agentId = m[1] ? decodeURIComponent(m[1]) : DEFAULT_AGENT_ID;
    const endpoint = router.endpoint(agentId);
    if (!endpoint) {
      return Promise.resolve(text(404, `No agent "${agentId}" is configured here. Add it under "agents" in the config, or use /mcp for the default agent.`));
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
      try {
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' } }));
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });
}

export async function listen(host: string, port: number, routes: Route[], fast?: FastPath): Promise<Listener> {
  if (!isLoopbackHost(host)) {
    throw new MwsError('listen_refused', `Refusing to listen on ${host}: Working Set only listens on loopback (127.0.0.1, ::1 or localhost).`, { host });
  }
  const handler = toNodeHandler({
    fetch: async (request: Request) => {
      const refused = refuseForeign(request);
      if (refused) return refused;
      const url = new URL(request.url);
      for (const route of routes) {
        const res = route(request, url);
        if (res) return res;
      }
      return text(404, `Nothing at ${url.pathname}. The MCP endpoint is /mcp (or /mcp/<agent-id>).`);
    },
  });
  const dispatch = async (req: IncomingMessage, res: ServerResponse) => {
    const agentId = fast && req.method === 'POST' ? agentIdOf(req.url ?? '') : undefined;
    if (!fast || agentId === undefined || !req.headers['content-type']?.startsWith('application/json')) return handler(req, res);
    const read = await readJson(req, res);
    if (!read) return;
    if (await fast(req, res, read.body, agentId)) return;
    return handler(req, res, read.body);
  };
  const server: HttpServer = createServer((req, res) => void dispatch(req, res));
  server.keepAliveTimeout = 65_000;
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
  const addr = server.address() as AddressInfo;
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
