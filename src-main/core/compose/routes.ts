// What the HTTP edge (core/http/) mounts: MCP, control, its events, the window and the OAuth callback;
// and the listener's options. The edge's own table says which path reaches which of these.
import type { ListenOptions } from '../http/listener.js';
import type { Handler, Mounts } from '../http/routes.js';
import { text } from '../http/answers.js';
import { oauthCallback } from '../http/oauthCallback.js';
import { agentGate } from '../http/agentGate.js';
import { AgentTokens } from '../http/agentTokens.js';
import { metadataDocument } from '../http/protectedResource.js';
import type { EdgeTimes } from '../http/edgeLimits.js';
import type { Exposure } from '../http/exposure.js';
import type { ControlApi } from '../control/api.js';
import { controlHandler } from '../control/http.js';
import { eventsHandler } from '../control/sse.js';
import type { UiSessions } from '../control/uiSessions.js';
import { bearerToken, tokenMatches } from '../store/controlToken.js';
import type { AppContext } from './context.js';
import type { Metrics } from '../observe/metrics.js';
import type { Upstreams } from './upstreams.js';

/** While the proxy is paused, MCP requests get a 503 with a sentence; /control and /ui keep working. */
const pausedEndpoint = {
  handle: async () => text(503, 'Working Set is paused. Resume it from the tray, the window or `mws resume`, then try again.'),
};

export function buildMounts(
  ctx: AppContext,
  up: Upstreams,
  control: ControlApi,
  ui: UiSessions,
  token: string,
  opts: {
    rendererDir: string;
    routes?: Record<string, Handler>;
    secureCookies?: boolean;
    health?: { alive: Handler; ready: Handler };
    metrics?: Metrics;
  },
): Mounts {
  const { endpoints, runtime } = ctx;
  const authorized = (r: Request) => ui.authorized(r) || tokenMatches(bearerToken(r.headers.get('authorization')), token);
  return {
    oauthCallback: oauthCallback(up.oauth.flows, ctx.log),
    mcp: { endpoint: (id) => (runtime.proxyPaused && endpoints.has(id) ? pausedEndpoint : endpoints.get(id)) },
    events: eventsHandler(ctx.events, authorized),
    control: controlHandler(
      control,
      () => token,
      (r) => ui.authorized(r),
    ),
    ui: { sessions: ui, rendererDir: opts.rendererDir, secureCookies: opts.secureCookies === true },
    ...(opts.routes ? { extra: opts.routes } : {}),
    ...(opts.health ? { health: opts.health } : {}),
    // A scraper holds the control token (Prometheus: bearer_token_file), never the window's cookie.
    ...(opts.metrics ? { metrics: opts.metrics.handler((r) => tokenMatches(bearerToken(r.headers.get('authorization')), token)) } : {}),
  };
}

export function listenOptions(ctx: AppContext, edgeTimes: Partial<EdgeTimes> | undefined, exposure?: Exposure): ListenOptions {
  const network = exposure?.network === true;
  // One for the app: agents signed in through one authorization server share its keys.
  const tokens = new AgentTokens();
  return {
    log: ctx.log,
    mcpGate: (id, authorization, origin) => agentGate(ctx.config, id, authorization, network, { origin, tokens }),
    resourceMetadata: (id, origin) => {
      const agent = ctx.config.agents.find((a) => a.id === id);
      return agent?.auth ? metadataDocument(origin, agent, agent.auth.issuer) : undefined;
    },
    ...(edgeTimes ? { edgeTimes } : {}),
    ...(exposure ? { exposure } : {}),
  };
}
