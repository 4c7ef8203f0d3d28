// The proxy side: the tool router with its meta-tools, the agents' endpoints, and telling agents and
// the window when a listing changed.
import { ToolRouter } from '../proxy/toolRouter.js';
import { AgentEndpoint } from '../proxy/endpoint.js';
import { SearchCallPairing } from '../metaTools/searchPairing.js';
import { promoteHandler } from '../metaTools/promote.js';
import { demoteHandler } from '../metaTools/demote.js';
import { searchToolsHandler } from '../metaTools/searchTools.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';
import type { UpstreamsPart } from './upstreams.js';
import type { SearchPart } from './search.js';
import type { SetsPart } from './sets.js';

export type RouterPart = {
  router: ToolRouter;
  /** Tells agents their list changed: the agents named, or (undefined) every agent whose listing differs. */
  /** Tells the agents named (all by default) whose listing changed, or was never computed, that their tools changed. */
  notifyChanged(agents?: string[]): void;
  /** An endpoint for an agent of the config. */
  addEndpoint(agent: string): void;
};

export function buildRouter(
  ctx: AppContext,
  stores: Stores,
  upstreams: UpstreamsPart,
  searchPart: SearchPart,
  setsPart: SetsPart,
  ready: Promise<void>,
): RouterPart {
  const { log, clock, endpoints, events } = ctx;
  const { catalog } = upstreams;
  const { search, learning, vectors } = searchPart;
  const pairing = new SearchCallPairing();
  const router: ToolRouter = new ToolRouter({
    // Read at each use: reconfigure replaces it.
    get config() {
      return ctx.config;
    },
    catalog,
    callLog: stores.recorder,
    clock,
    ready,
    listing: (agent) => setsPart.sets.listing(agent),
    hooks: {
      beforeCall: (agent, entry, args, signal, progress) => setsPart.gate.check(agent, entry, args, signal, progress),
      verdict: (agent, entry) => setsPart.gate.preview(agent, entry),
      used: (agent, tool, ts, c) => {
        setsPart.sets.markUsed(agent, tool, ts);
        // Learned from only as the answer to this connection's own search, and only if it showed the tool.
        if (pairing.allows(agent, tool, c)) learning.called(agent, tool);
      },
    },
    closeNames: (name) => search.closeNames(name, 3),
    inFlight: setsPart.inFlight,
    lastSeen: setsPart.lastSeen,
    log,
  });
  const notifyChanged = (agents?: string[]) => {
    // A set change recomputes only the agents named: one agent's promote is not 100 agents' listings.
    // A listing that came out the same is not announced (an upstream turned off told every client twice).
    const r = router.recompute(agents);
    for (const agent of new Set([...r.changed, ...r.unknown])) {
      endpoints.get(agent)?.notifyToolsChanged();
      events.emit({ type: 'setChanged', agent });
    }
  };
  /** The search index for a new toolbox is built once the change is told, not by the next search. */
  let warmTimer: NodeJS.Timeout | undefined;
  const warmSearch = () => {
    clearTimeout(warmTimer);
    // In slices: calls keep flowing while a big toolbox is indexed.
    warmTimer = setTimeout(
      () => void search.warmInSlices().catch((err: Error) => log.warn(`search index build failed: ${err.message}`)),
      0,
    );
    warmTimer.unref();
  };
  ctx.toolboxChanged.push(() => (notifyChanged(), warmSearch(), vectors.update([...catalog.toolbox().all()])));
  ctx.setsChanged.push((agents) => notifyChanged(agents));
  router.setMetaHandler(
    'search_tools',
    searchToolsHandler({ search, listed: (agent) => router.workingSetEntries(agent), callLog: stores.recorder, clock, pairing }),
  );
  const setTools = { sets: setsPart.sets, toolbox: () => catalog.toolbox(), search };
  // Promoting a tool right after a search is an answer to that search, as a call is.
  router.setMetaHandler(
    'promote',
    promoteHandler({ ...setTools, promoted: (agent, tool, c) => pairing.allows(agent, tool, c) && learning.called(agent, tool) }),
  );
  router.setMetaHandler('demote', demoteHandler(setTools));
  const addEndpoint = (agent: string) => endpoints.set(agent, new AgentEndpoint(agent, router, log, ctx.now, upstreams.passthrough));
  for (const agent of ctx.config.agents) addEndpoint(agent.id);
  return { router, notifyChanged, addEndpoint };
}
