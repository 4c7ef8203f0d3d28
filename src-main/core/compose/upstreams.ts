// The upstream side: OAuth sign-ins, the catalog of connections and their toolbox, and the passthrough
// of resources and prompts.
import type { Upstream } from '../upstream/types.js';
import { Catalog } from '../upstream/catalog.js';
import { OAuthUpstreams } from '../upstream/oauth/manager.js';
import { FileOAuthStore, type OAuthStore } from '../upstream/oauth/store.js';
import { buildToolbox, type ToolboxCatalog } from '../toolbox/merge.js';
import { Passthrough } from '../proxy/passthrough.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';

export type UpstreamsPart = { oauth: OAuthUpstreams; catalog: ToolboxCatalog; passthrough: Passthrough };

export function buildUpstreams(
  ctx: AppContext,
  stores: Stores,
  opts: { oauthStore?: OAuthStore; connect?: (vendor: string) => Upstream },
): UpstreamsPart {
  const { log, events } = ctx;
  const oauth = new OAuthUpstreams({
    store: opts.oauthStore ?? new FileOAuthStore(ctx.config.stateDir, log),
    now: ctx.now,
    log,
    baseUrl: () => ctx.baseUrl,
    onSignInNeeded: (vendor) => events.emit({ type: 'signInNeeded', vendor }),
  });
  const catalog = new Catalog({
    // Read at each use: reconfigure replaces it.
    get config() {
      return ctx.config;
    },
    // The hidden tools are read at each build: a change to them rebuilds the toolbox (reconfigure.ts).
    build: (state, prefixNames) => buildToolbox(state, prefixNames, ctx.config.hiddenTools),
    log,
    now: ctx.now,
    onChange: () => ctx.toolboxChanged.forEach((f) => f()),
    onStatus: (vendor, status) => events.emit({ type: 'upstreamStatus', vendor, status }),
    onNotification: (_vendor, method, params) => ctx.endpoints.forEach((e) => e.notifyUpstream(method, params)),
    values: { secrets: stores.secrets, env: process.env },
    oauth,
    ...(opts.connect ? { connect: opts.connect } : {}),
  });
  return { oauth, catalog, passthrough: new Passthrough(catalog, ctx.config, log) };
}
