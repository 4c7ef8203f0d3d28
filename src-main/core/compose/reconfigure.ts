// Applying a config saved while running (the window, the CLI, a hand edit of the file): the next config
// is computed whole, put in force at once, and each part that keeps its own copy is told, in the
// order data flows (upstreams, working sets, agents' endpoints, listings). The old config object is
// left as it was: anything still holding it sees one consistent config, never a half-applied one.
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../config/schema.js';
import type { AppContext } from './context.js';
import type { UpstreamsPart } from './upstreams.js';
import type { SetsPart } from './sets.js';
import type { RouterPart } from './router.js';
import type { SearchService } from '../search/service.js';

/** What a saved config becomes before it is in force, and whether a restart is needed for the rest. */
export function nextConfig(
  saved: Config,
  current: Config,
  opts: { transform?: (c: Config) => Config; demo: boolean; fileUpstreams?: Config['upstreams'] },
): { next: Config; restartNeeded: boolean } {
  let next = opts.transform?.(saved) ?? saved;
  let restartNeeded = false;
  if (opts.demo) {
    // The demo runs on until a restart: a saved upstream (leaving the demo, asked in the window) waits for it.
    if (!isDeepStrictEqual(saved.upstreams, opts.fileUpstreams ?? {})) restartNeeded = true;
    next = {
      ...next,
      upstreams: current.upstreams,
      prefixNames: current.prefixNames,
      backendHints: current.backendHints,
      stateDir: current.stateDir,
    };
  }
  // The listener, the state folder and the search model are set at start; a change to them waits for a restart.
  restartNeeded ||=
    next.listen.port !== current.listen.port ||
    next.listen.host !== current.listen.host ||
    next.stateDir !== current.stateDir ||
    // The model is loaded once; another one waits for a restart.
    next.search?.model !== current.search?.model;
  return { next: { ...next, stateDir: current.stateDir }, restartNeeded };
}

export function reconfigurer(
  ctx: AppContext,
  upstreams: UpstreamsPart,
  setsPart: SetsPart,
  routing: RouterPart,
  search: SearchService,
  opts: { transform?: (c: Config) => Config; fileUpstreams?: Config['upstreams'] },
): (saved: Config) => Promise<void> {
  return async (saved) => {
    const before = ctx.config;
    const { next, restartNeeded } = nextConfig(saved, before, { ...opts, demo: ctx.runtime.demo != null });
    ctx.runtime.restartNeeded ||= restartNeeded;
    const had = new Set(before.agents.map((a) => a.id));
    // A removed agent's endpoint goes before the config that no longer names it: in between, the gate
    // (which reads the config) would let a request through to it without the agent's token.
    const closing: Array<Promise<void> | undefined> = [];
    for (const id of had) {
      if (next.agents.some((a) => a.id === id)) continue;
      closing.push(ctx.endpoints.get(id)?.close());
      ctx.endpoints.delete(id);
    }
    ctx.replaceConfig(next);
    upstreams.passthrough.reconfigure(next);
    setsPart.gate.reconfigure(next);
    search.setAliases(next.searchAliases);
    for (const a of next.agents) {
      if (had.has(a.id)) continue;
      await setsPart.sets.ensureAgent(a.id);
      routing.addEndpoint(a.id);
    }
    await Promise.all(closing);
    await upstreams.catalog.syncUpstreams();
    // Tools hidden or shown: the toolbox is built again, and with it every listing and the search index.
    if (JSON.stringify(before.hiddenTools) !== JSON.stringify(next.hiddenTools)) upstreams.catalog.rebuildToolbox();
    // A pin added or removed in this edit shows at once, not at the next cycle.
    await setsPart.sets.reconcilePinsNow();
    // Listings are recomputed (compactDescriptions may have changed); the toolbox itself is not rebuilt.
    routing.notifyChanged(next.agents.map((a) => a.id));
    ctx.events.emit({ type: 'settingsChanged' });
  };
}
