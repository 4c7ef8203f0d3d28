// What the HTTP edge (core/http/) mounts: MCP, control, its events, the window and the OAuth callback;
// and the listener's options. The edge's own table says which path reaches which of these.
import { listen, type Listener, type ListenOptions } from '../http/listener.js';
import { decideExposure } from '../http/exposure.js';
import { createFastPath } from '../proxy/fastPath.js';
import type { ToolRouter } from '../proxy/toolRouter.js';
import { MwsError } from '../errors.js';
import { listenError } from '../listenError.js';
import type { Handler, Mounts } from '../http/routes.js';
import { text } from '../http/answers.js';
import { oauthCallback } from '../http/oauthCallback.js';
import { agentGate } from '../http/agentGate.js';
import { AgentTokens } from '../http/agentTokens.js';
import { metadataDocument } from '../http/protectedResource.js';
import { controlMetadataDocument } from '../operators/controlMetadata.js';
import type { EdgeTimes } from '../http/edgeLimits.js';
import type { Exposure } from '../http/exposure.js';
import type { ControlApi } from '../control/api.js';
import { controlHandler, type OperatorCheck, type OperatorVerdict } from '../control/transport/http.js';
import { windowSignIn } from '../http/windowSignIn.js';
import { roleOf } from '../control/roles.js';
import { eventsHandler } from '../control/transport/sse.js';
import type { UiSessions } from '../http/uiSessions.js';
import { bearerToken, tokenMatches } from '../store/controlToken.js';
import type { AppContext } from './context.js';
import type { Metrics } from '../observe/metrics.js';
import type { UpstreamsPart } from './upstreams.js';

/** While the proxy is paused, MCP requests get a 503 with a sentence; /control and /ui keep working. */
const pausedEndpoint = {
  handle: async () => text(503, 'Working Set is paused. Resume it from the tray, the window or `mws resume`, then try again.'),
};

/** One per app: agents and operators signed in through one authorization server share its keys. */
const TOKENS = new WeakMap<AppContext, AgentTokens>();
function tokensOf(ctx: AppContext): AgentTokens {
  let t = TOKENS.get(ctx);
  if (!t) TOKENS.set(ctx, (t = new AgentTokens()));
  return t;
}

/** An operator's access token, checked against the config's "operators" issuer: who they are, their role, and until when. */
async function operatorToken(ctx: AppContext, bearer: string, origin: string): Promise<OperatorVerdict> {
  const ops = ctx.config.operators;
  if (!ops) return { status: 401, message: 'Operators do not sign in through an identity provider here.' };
  const audience = ops.audience ?? `${origin}/control`;
  const checked = await tokensOf(ctx).claims(bearer, { issuer: ops.issuer, audience });
  if (!checked.ok) return { status: checked.status, message: checked.message };
  const p = checked.payload;
  const name = [p.preferred_username, p.email, p.sub, p.client_id].find((v): v is string => typeof v === 'string') ?? 'an operator';
  const claim = ops.roleClaim ?? 'roles';
  const values = { admin: ops.admin ?? ['admin'], approver: ops.approver ?? ['approver'], viewer: ops.viewer ?? ['viewer'] };
  const role = roleOf(p[claim], values);
  if (!role)
    return {
      status: 403,
      message: `Signed in as ${name}, but the token's "${claim}" claim holds none of the roles this instance knows (${[...values.admin, ...values.approver, ...values.viewer].join(', ')}). Ask an admin for a role.`,
    };
  return { actor: { name: name.slice(0, 120), role }, until: typeof p.exp === 'number' ? p.exp * 1000 : Number.POSITIVE_INFINITY };
}

/** An operator's bearer token on a /control request (none: undefined, so the usual 401 answers). */
async function operatorOf(ctx: AppContext, r: Request, publicOrigin: string | undefined): ReturnType<OperatorCheck> {
  const bearer = bearerToken(r.headers.get('authorization'));
  if (!ctx.config.operators || !bearer) return undefined;
  return operatorToken(ctx, bearer, publicOrigin ?? new URL(r.url).origin);
}

export function buildMounts(
  ctx: AppContext,
  upstreams: UpstreamsPart,
  control: ControlApi,
  ui: UiSessions,
  token: string,
  opts: {
    rendererDir: string;
    routes?: Record<string, Handler>;
    secureCookies?: boolean;
    health?: { alive: Handler; ready: Handler };
    /** Behind a TLS proxy: the origin operators' tokens name (else the request's own). */
    publicOrigin?: string;
    metrics?: Metrics;
  },
): Mounts {
  const { endpoints, runtime } = ctx;
  const authorized = (r: Request) => ui.authorized(r) || tokenMatches(bearerToken(r.headers.get('authorization')), token);
  return {
    oauthCallback: oauthCallback(upstreams.oauth.flows, ctx.log),
    mcp: { endpoint: (id) => (runtime.proxyPaused && endpoints.has(id) ? pausedEndpoint : endpoints.get(id)) },
    // Operators of every role may follow the events: they are what the read-only views show.
    events: eventsHandler(ctx.events, async (r) => authorized(r) || 'actor' in ((await operatorOf(ctx, r, opts.publicOrigin)) ?? {})),
    control: controlHandler(
      control,
      () => token,
      (r) => ui.caller(r),
      (r) => operatorOf(ctx, r, opts.publicOrigin),
    ),
    ui: {
      sessions: ui,
      rendererDir: opts.rendererDir,
      secureCookies: opts.secureCookies === true,
      signIn: windowSignIn({
        operators: () => ctx.config.operators,
        sessions: ui,
        check: (accessToken, origin) => operatorToken(ctx, accessToken, origin),
        ...(opts.publicOrigin ? { publicOrigin: opts.publicOrigin } : {}),
        secure: opts.secureCookies === true,
        now: () => ctx.clock.now(),
      }),
    },
    ...(opts.routes ? { extra: opts.routes } : {}),
    ...(opts.health ? { health: opts.health } : {}),
    // A scraper holds the control token (Prometheus: bearer_token_file), never the window's cookie.
    ...(opts.metrics ? { metrics: opts.metrics.handler((r) => tokenMatches(bearerToken(r.headers.get('authorization')), token)) } : {}),
  };
}

export function listenOptions(ctx: AppContext, edgeTimes: Partial<EdgeTimes> | undefined, exposure?: Exposure): ListenOptions {
  const network = exposure?.network === true;
  const tokens = tokensOf(ctx);
  return {
    log: ctx.log,
    mcpGate: (id, authorization, origin) => agentGate(ctx.config, id, authorization, network, { origin, tokens }),
    resourceMetadata: (id, origin) => {
      const agent = ctx.config.agents.find((a) => a.id === id);
      return agent?.auth ? metadataDocument(origin, agent, agent.auth.issuer) : undefined;
    },
    controlMetadata: (origin) => {
      const ops = ctx.config.operators;
      return ops ? controlMetadataDocument(ops.audience ?? `${origin}/control`, ops) : undefined;
    },
    ...(edgeTimes ? { edgeTimes } : {}),
    ...(exposure ? { exposure } : {}),
  };
}

/**
 * Opens the listener: beyond loopback only with every agent's token and TLS (here or at a trusted
 * proxy), else a sentence; MCP posts through the fast path unless it is turned off.
 */
export async function openListener(
  ctx: AppContext,
  parts: { upstreams: UpstreamsPart; control: ControlApi; ui: UiSessions; router: ToolRouter; token: string },
  opts: {
    rendererDir: string;
    routes?: Record<string, Handler> | undefined;
    health: { alive: Handler; ready: Handler };
    metrics: Metrics;
    fastPath: boolean;
    edgeTimes: Partial<EdgeTimes> | undefined;
  },
): Promise<Listener> {
  const { host, port } = ctx.config.listen;
  const decided = decideExposure(ctx.config);
  if (!decided.ok) throw new MwsError('listen_refused', decided.message, { host, port });
  const { endpoints, runtime } = ctx;
  return listen(
    host,
    port,
    buildMounts(ctx, parts.upstreams, parts.control, parts.ui, parts.token, {
      secureCookies: decided.exposure.network,
      ...(decided.exposure.publicOrigin ? { publicOrigin: decided.exposure.publicOrigin } : {}),
      health: opts.health,
      metrics: opts.metrics,
      rendererDir: opts.rendererDir,
      ...(opts.routes ? { routes: opts.routes } : {}),
    }),
    opts.fastPath
      ? createFastPath(
          parts.router,
          () => !runtime.proxyPaused,
          (agent, sid) => endpoints.get(agent)?.liveSession(sid),
        )
      : undefined,
    listenOptions(ctx, opts.edgeTimes, decided.exposure),
  ).catch((err: unknown) => Promise.reject(listenError(host, port, err)));
}
