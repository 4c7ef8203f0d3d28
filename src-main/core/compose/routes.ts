// The HTTP routes the listener serves, in the order it tries them, and the listener's options.
import type { ListenOptions, Route } from '../proxy/listener.js';
import { mcpRoute, text } from '../proxy/listener.js';
import { oauthCallbackRoute } from '../proxy/oauthCallback.js';
import { agentGate } from '../proxy/agentAccess.js';
import type { EdgeTimes } from '../proxy/edgeLimits.js';
import type { ControlApi } from '../control/api.js';
import { controlRoute } from '../control/http.js';
import { eventsRoute } from '../control/sse.js';
import { uiRoute, type UiSessions } from '../control/uiRoute.js';
import { renewRoute } from '../control/sessionRenew.js';
import { rootRoute } from '../control/signInPage.js';
import { bearerToken, tokenMatches } from '../store/controlToken.js';
import type { AppContext } from './context.js';
import type { Upstreams } from './upstreams.js';

/** While the proxy is paused, MCP requests get a 503 with a sentence; /control and /ui keep working. */
const pausedEndpoint = { handle: async () => text(503, 'Working Set is paused. Resume it from the tray, the window or `mws resume`, then try again.') };

export function buildRoutes(ctx: AppContext, up: Upstreams, control: ControlApi, ui: UiSessions, token: string, opts: { rendererDir: string; routes?: Route[] }): Route[] {
  const { endpoints, runtime } = ctx;
  const authorized = (r: Request) => ui.authorized(r) || tokenMatches(bearerToken(r.headers.get('authorization')), token);
  return [
    oauthCallbackRoute(up.oauth.flows, ctx.log),
    mcpRoute({ endpoint: (id) => (runtime.proxyPaused && endpoints.has(id) ? pausedEndpoint : endpoints.get(id)) }),
    eventsRoute(ctx.events, authorized),
    controlRoute(control, () => token, (r) => ui.authorized(r)),
    renewRoute(ui),
    uiRoute(ui, opts.rendererDir),
    rootRoute(),
    ...(opts.routes ?? []),
  ];
}

export function listenOptions(ctx: AppContext, edgeTimes: Partial<EdgeTimes> | undefined): ListenOptions {
  return { log: ctx.log, mcpGate: (id: string, authorization: string | undefined) => agentGate(ctx.config, id, authorization), ...(edgeTimes ? { edgeTimes } : {}) };
}
