// Composition root: wires config, upstreams, toolbox, working sets and the listener together.
// Each part exports start/stop; stop is idempotent and finishes even when a part throws.
import type { Config } from './config/schema.js';
import type { Clock } from './clock.js';
import type { Logger } from './log.js';
import { Catalog } from './upstream/catalog.js';
import { CallLog } from './usage/callLog.js';
import { SeedWorkingSetFile } from './workingset/seedFile.js';
import { workingSetNames } from './workingset/names.js';
import { ToolRouter } from './proxy/toolRouter.js';
import { AgentEndpoint } from './proxy/endpoint.js';
import { listen, mcpRoute, type Listener } from './proxy/listener.js';
import { createFastPath } from './proxy/fastPath.js';
import type { Upstream } from './upstream/types.js';
import { SearchService } from './search/service.js';
import { searchToolsHandler } from './search/metaTool.js';

/** How often idle 2025 sessions are looked for. */
const SESSION_SWEEP_MS = 10 * 60 * 1000;

export type AppOptions = {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Replaces real upstream connections in unit tests. */
  connect?: (vendor: string) => Upstream;
  /** false serves every request through the SDK handler (tests compare the two paths). */
  fastPath?: boolean;
};

export type App = {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly router: ToolRouter;
  readonly search: SearchService;
  endpoints: ReadonlyMap<string, AgentEndpoint>;
  /** Connects upstreams and starts listening; answers the base URL. */
  start(): Promise<{ url: string }>;
  stop(): Promise<void>;
};

export function createApp(opts: AppOptions): App {
  const { config, clock, log } = opts;
  const endpoints = new Map<string, AgentEndpoint>();
  const callLog = new CallLog(config.stateDir);
  const seed = new SeedWorkingSetFile(config.stateDir, log);

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const notifyChanged = () => {
    for (const agentId of router.recompute()) endpoints.get(agentId)?.notifyToolsChanged();
  };
  const catalog = new Catalog({ config, log, now: () => clock.now(), onChange: notifyChanged, ...(opts.connect ? { connect: opts.connect } : {}) });
  const router: ToolRouter = new ToolRouter({
    config,
    catalog,
    callLog,
    clock,
    ready,
    workingSet: workingSetNames(config, seed),
  });
  const search = new SearchService(() => catalog.toolbox(), config.searchAliases);
  router.setMetaHandler('search_tools', searchToolsHandler({ search, router, callLog, clock }));
  for (const agent of config.agents) endpoints.set(agent.id, new AgentEndpoint(agent.id, router, log, () => clock.now()));

  let listener: Listener | undefined;
  let unwatch: (() => void) | undefined;
  let sessionTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  return {
    config,
    catalog,
    router,
    search,
    endpoints,
    async start() {
      listener = await listen(config.listen.host, config.listen.port, [mcpRoute({ endpoint: (id) => endpoints.get(id) })], opts.fastPath === false ? undefined : createFastPath(router));
      unwatch = seed.watch(notifyChanged);
      sessionTimer = setInterval(() => endpoints.forEach((e) => e.sweepIdleSessions()), SESSION_SWEEP_MS);
      sessionTimer.unref();
      // The first tools/list waits for this, bounded by the list budget of each upstream.
      void catalog.start().finally(markReady);
      return { url: listener.url };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(sessionTimer);
      const steps: Array<() => Promise<void> | void> = [
        () => unwatch?.(),
        () => listener?.close(),
        ...[...endpoints.values()].map((e) => () => e.close()),
        () => catalog.stop(),
        () => callLog.close(),
      ];
      for (const step of steps) {
        try {
          await step();
        } catch (err) {
          log.warn(`while stopping: ${(err as Error).message}`);
        }
      }
    },
  };
}
