// Every path the listener serves past its guard, declared once, on Hono. No two patterns match one
// path (a test checks it), so no route depends on being declared before another: `/control/events`
// and the methods share one pattern and part inside it, and the window's own paths (`/ui/_…`) are
// apart from its files by their first character. MCP handling (proxy/) and control (control/) mount
// here as plain `(Request) => Response` handlers; neither imports this folder or the other.
import { Hono, type Context, type Next } from 'hono';
import type { Logger } from '../log.js';
import type { UiSessions } from './uiSessions.js';
import { withWindowHeaders } from './windowHeaders.js';
import { OAUTH_CALLBACK_PATH } from '../upstream/oauth/manager.js';
import { jsonRpcResponse, text } from './answers.js';
import { admitControlBody } from './controlBody.js';
import { RPC_ERROR } from '../protocol.js';
import { needSession, spendLink, uiFiles } from './uiFiles.js';
import { RENEW_PATH, RENEW_SCRIPT_PATH, renewScript, renewSession } from './sessionRenew.js';
import { SIGN_IN_CALLBACK_PATH, SIGN_IN_PATH, type WindowSignIn } from './windowSignIn.js';

export type Handler = (request: Request) => Promise<Response>;

/** What the edge (edgeChain.ts) learnt of a request before the routes: the agent its MCP path names. */
export type RouteEnv = { Bindings: { agentId?: string | undefined } };

export type McpRouter = {
  endpoint(agentId: string): { handle(request: Request): Promise<Response> } | undefined;
};

/** What mounts on the edge; a part left out answers 404 as any unknown path does. */
export type Mounts = {
  /** `/mcp`, `/mcp/<agent-id>/mcp` and `/mcp/<agent-id>`, any method. */
  mcp?: McpRouter;
  /** POST /control/<method>. */
  control?: Handler;
  /** GET /control/events. */
  events?: Handler;
  /** `/ui`: the window's files, its one-time links and its cookie renewal. */
  ui?: {
    sessions: UiSessions;
    rendererDir: string;
    /** Network mode: the session cookie is `Secure` (sent over HTTPS only). */ secureCookies?: boolean;
    /** People sign in through the team's identity provider (windowSignIn.ts). */
    signIn?: WindowSignIn;
  };
  /** GET OAUTH_CALLBACK_PATH. */
  oauthCallback?: Handler;
  /** GET /healthz (alive) and /readyz (can serve), for balancers: no credential, nothing named in the answer. */
  health?: { alive: Handler; ready: Handler };
  /** GET /metrics (Prometheus), behind the control token. */
  metrics?: Handler;
  /** More exact paths, any method (tests mount probes here). */
  extra?: Record<string, Handler>;
};

/** The patterns, for the test that no two of them match one path. */
export const PATTERNS = {
  root: '/',
  mcp: ['/mcp', '/mcp/', '/mcp/:agent', '/mcp/:agent/', '/mcp/:agent/mcp', '/mcp/:agent/mcp/'],
  control: '/control/:method',
  oauthCallback: OAUTH_CALLBACK_PATH,
  uiBare: '/ui',
  uiIndex: '/ui/',
  uiFile: '/ui/:file{[^_].*}',
  renew: RENEW_PATH,
  signIn: SIGN_IN_PATH,
  signInCallback: SIGN_IN_CALLBACK_PATH,
  renewScript: RENEW_SCRIPT_PATH,
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
} as const;

const notFound = (path: string) =>
  text(404, `Nothing at ${JSON.stringify(path.slice(0, 200))}. The MCP endpoint is /mcp (or /mcp/<agent-id>/mcp).`);

/** Every answer under /ui carries the window's headers (CSP, no framing, no sniffing, same-origin only). */
async function windowHeaders(c: Context, next: Next): Promise<void> {
  await next();
  c.res = withWindowHeaders(c.res);
}

/** A path read with GET (and HEAD, unless `head` is false); any other method is answered 405. */
function onlyGet(h: ((c: Context) => Response | Promise<Response>) | undefined, head = true) {
  return (c: Context) =>
    h === undefined ? notFound(c.req.path) : c.req.method === 'GET' || (head && c.req.method === 'HEAD') ? h(c) : text(405, 'Use GET.');
}

export function edgeApp(m: Mounts, log?: Logger): Hono<RouteEnv> {
  // Routes see the path the listener's guard and gate judged: URL-normalized, its escapes undecoded
  // (Hono's default decodes, so `/m%63p` would reach the MCP route past a gate that saw no MCP path).
  const app = new Hono<RouteEnv>({ getPath: (request) => new URL(request.url).pathname });
  const when =
    <T>(part: T | undefined, answer: (part: T, c: Context) => Response | Promise<Response>) =>
    (c: Context) =>
      part === undefined ? notFound(c.req.path) : answer(part, c);

  app.all(PATTERNS.root, (c) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? c.redirect('/ui/', 303) : notFound(c.req.path)));

  const mcp = when(m.mcp, (router, c) => {
    // Parsed and judged at the edge (a malformed path never gets here); none means the edge saw no MCP path.
    const agentId = c.env?.agentId;
    if (agentId === undefined) return notFound(c.req.path);
    const endpoint = router.endpoint(agentId);
    if (!endpoint) {
      return text(
        404,
        `No agent ${JSON.stringify(agentId.slice(0, 64))} is configured here. Add it under "agents" in the config (\`mws agent list\` shows the ones there are), or use /mcp for the default agent.`,
      );
    }
    return endpoint.handle(c.req.raw);
  });
  for (const p of PATTERNS.mcp) app.all(p, mcp);

  app.all(PATTERNS.control, async (c) => {
    const events = c.req.param('method') === 'events' && c.req.method === 'GET';
    const handler = events ? m.events : m.control;
    if (!handler) return notFound(c.req.path);
    const admitted = await admitControlBody(c.req.raw);
    return admitted instanceof Response ? admitted : handler(admitted);
  });

  app.all(
    PATTERNS.oauthCallback,
    when(m.oauthCallback, (h, c) => h(c.req.raw)),
  );

  if (m.ui) {
    const { sessions, rendererDir } = m.ui;
    const secure = m.ui.secureCookies === true;
    app.use('/ui', windowHeaders);
    app.use('/ui/*', windowHeaders);
    const signIn = m.ui.signIn;
    const offered = () => signIn?.offered() === true;
    app.all(PATTERNS.uiBare, spendLink(sessions, secure), needSession(sessions, offered), (c) => c.redirect('/ui/', 301));
    const files = uiFiles(rendererDir);
    app.all(PATTERNS.uiIndex, spendLink(sessions, secure), needSession(sessions, offered), files, () => text(404, 'Not found.'));
    app.all(PATTERNS.uiFile, spendLink(sessions, secure), needSession(sessions, offered), files, () => text(404, 'Not found.'));
    // A sign-in starts and ends with a GET only: a HEAD would set its cookie or spend its code.
    app.all(PATTERNS.signIn, onlyGet(signIn?.start, false));
    app.all(PATTERNS.signInCallback, onlyGet(signIn?.callback, false));
    app.all(PATTERNS.renew, renewSession(sessions, secure));
    app.get(PATTERNS.renewScript, renewScript);
  }

  const raw = (h: Handler | undefined) => h && ((c: Context) => h(c.req.raw));
  app.all(PATTERNS.healthz, onlyGet(raw(m.health?.alive)));
  app.all(PATTERNS.readyz, onlyGet(raw(m.health?.ready)));
  app.all(PATTERNS.metrics, onlyGet(raw(m.metrics)));

  for (const [path, handler] of Object.entries(m.extra ?? {})) app.all(path, (c) => handler(c.req.raw));

  app.notFound((c) => notFound(c.req.path));
  // A throw in a handler is answered and logged, never fatal (the listener has its own net under this).
  app.onError((err, c) => {
    log?.warn(`request ${c.req.method} ${JSON.stringify(c.req.path.slice(0, 200))} failed inside the proxy: ${err.message}`);
    return jsonRpcResponse(
      500,
      RPC_ERROR.internal,
      'Internal error in Working Set while handling this request; it was logged. The proxy keeps running.',
    );
  });
  return app;
}
