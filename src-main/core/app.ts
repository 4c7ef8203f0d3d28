// Composition root: wires config, upstreams, toolbox, search, working sets, approvals, the listener
// and the ControlApi together. Each part exports start/stop; stop is idempotent and finishes even
// when a part throws.
import type { Config } from './config/schema.js';
import type { Clock } from './clock.js';
import type { Logger } from './log.js';
import type { Upstream } from './upstream/types.js';
import { Catalog } from './upstream/catalog.js';
import { CallLog } from './usage/callLog.js';
import { UsageStore } from './usage/usageStore.js';
import { SeedWorkingSetFile } from './workingset/seedFile.js';
import { AgentStateFiles } from './workingset/store.js';
import { WorkingSets } from './workingset/manager.js';
import { startSweepSchedule } from './workingset/scheduler.js';
import { workingSetMetaTools } from './workingset/metaTools.js';
import { PendingApprovals } from './approvals/pending.js';
import { ApprovalGate } from './approvals/gate.js';
import { ToolRouter } from './proxy/toolRouter.js';
import { AgentEndpoint } from './proxy/endpoint.js';
import { listen, mcpRoute, type Listener, type Route } from './proxy/listener.js';
import { createFastPath } from './proxy/fastPath.js';
import { SearchService } from './search/service.js';
import { searchToolsHandler } from './search/metaTool.js';
import { CoreEvents } from './control/events.js';
import { createControl } from './control/core.js';
import { controlRoute } from './control/http.js';
import { ensureToken } from './control/token.js';
import type { ControlApi } from './control/api.js';
import { eventsRoute } from './control/sse.js';
import { UiSessions, uiRoute } from './control/uiRoute.js';
import { rootRoute } from './control/signInPage.js';
import { ConfigEditor, type Raw } from './config/editor.js';
import { tokenMatches } from './control/token.js';
import { fileURLToPath } from 'node:url';
import { text } from './proxy/listener.js';

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
  /** More routes on the same listener. */
  routes?: Route[];
  /** The config file the running config came from, for edits from the window (none: not editable). */
  configFile?: { path: string; raw: Raw };
  /** Applied to every config loaded or saved while running (the CLI's --demo and --port). */
  transform?: (c: Config) => Config;
  /** How often a call waiting for approval sends its client progress (default APPROVAL_KEEPALIVE_MS). */
  approvalKeepAliveMs?: number;
  /** The built settings window, served at /ui (default: out/renderer of this package). */
  rendererDir?: string;
};

/** The built renderer, two folders up from src-main/core. */
export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

export type StartOptions = {
  /** Open the HTTP listener (false: the CLI working on the state files with no instance running). */
  listen?: boolean;
  /** Run the working-set cycle every five minutes. */
  schedule?: boolean;
};

export type App = {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly router: ToolRouter;
  readonly search: SearchService;
  readonly sets: WorkingSets;
  readonly gate: ApprovalGate;
  readonly events: CoreEvents;
  readonly control: ControlApi;
  readonly ui: UiSessions;
  endpoints: ReadonlyMap<string, AgentEndpoint>;
  /** Connects upstreams and starts listening; answers the base URL. */
  start(opts?: StartOptions): Promise<{ url: string }>;
  stop(): Promise<void>;
};

export function createApp(opts: AppOptions): App {
  const { config, clock, log } = opts;
  const endpoints = new Map<string, AgentEndpoint>();
  const events = new CoreEvents();
  const callLog = new CallLog(config.stateDir);
  const seed = new SeedWorkingSetFile(config.stateDir, log);
  const usage = new UsageStore(config.stateDir, log);
  const files = new AgentStateFiles(config.stateDir, log);

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let baseUrl = `http://${config.listen.host}:${config.listen.port}`;

  /**
   * Tells agents their list changed: after a set change, the agents named; after a toolbox change
   * (`agents` undefined), every agent whose listing differs or was never computed.
   */
  const notifyChanged = (agents?: string[]) => {
    const r = router.recompute();
    for (const agent of new Set([...r.changed, ...(agents ?? r.unknown)])) {
      endpoints.get(agent)?.notifyToolsChanged();
      events.emit({ type: 'setChanged', agent });
    }
  };
  const catalog = new Catalog({ config, log, now: () => clock.now(), onChange: () => notifyChanged(), onStatus: (vendor, status) => events.emit({ type: 'upstreamStatus', vendor, status }), ...(opts.connect ? { connect: opts.connect } : {}) });
  const sets: WorkingSets = new WorkingSets({
    config,
    clock,
    log,
    files,
    usage,
    seed,
    toolbox: () => catalog.toolbox(),
    busy: (agent) => router.callsInFlight(agent) > 0,
    revoked: () => catalog.revokedVendors(),
    events: {
      changed: (agents) => notifyChanged(agents),
      demoted: (agent, tools, cause) => events.emit({ type: 'toolsDemoted', agent, tools, cause }),
    },
  });
  const pending = new PendingApprovals(config.timeouts.approvalMs, () => clock.now(), (call) => events.emit({ type: 'approvalPending', call }));
  const gate = new ApprovalGate(config, sets, pending, () => clock.now(), opts.approvalKeepAliveMs);
  const router: ToolRouter = new ToolRouter({
    config,
    catalog,
    callLog,
    clock,
    ready,
    workingSet: (agent) => sets.names(agent),
    hooks: { beforeCall: (agent, entry, args, signal, progress) => gate.check(agent, entry, args, signal, progress), used: (agent, tool, ts) => sets.markUsed(agent, tool, ts) },
    closeNames: (name) => search.closeNames(name, 3),
  });
  const search = new SearchService(() => catalog.toolbox(), config.searchAliases);
  router.setMetaHandler('search_tools', searchToolsHandler({ search, router, callLog, clock }));
  const ws = workingSetMetaTools(sets, () => catalog.toolbox(), search);
  router.setMetaHandler('promote', ws.promote);
  router.setMetaHandler('demote', ws.demote);
  for (const agent of config.agents) endpoints.set(agent.id, new AgentEndpoint(agent.id, router, log, () => clock.now()));
  const runtime = { proxyPaused: false, restartNeeded: false };
  const applyConfig = async (saved: Config) => {
    const next = opts.transform?.(saved) ?? saved;
    // The listener and the state folder are set at start; a change to them waits for a restart.
    runtime.restartNeeded ||= next.listen.port !== config.listen.port || next.listen.host !== config.listen.host || next.stateDir !== config.stateDir;
    const before = new Set(config.agents.map((a) => a.id));
    Object.assign(config, { ...next, stateDir: config.stateDir });
    for (const a of config.agents) {
      if (before.has(a.id)) continue;
      await sets.ensureAgent(a.id);
      endpoints.set(a.id, new AgentEndpoint(a.id, router, log, () => clock.now()));
    }
    for (const id of before) {
      if (config.agents.some((a) => a.id === id)) continue;
      await endpoints.get(id)?.close();
      endpoints.delete(id);
    }
    await catalog.syncUpstreams();
    // Listings are recomputed (compactDescriptions may have changed); the toolbox itself is not rebuilt.
    notifyChanged(config.agents.map((a) => a.id));
    events.emit({ type: 'settingsChanged' });
  };
  const editor = new ConfigEditor(opts.configFile?.path, opts.configFile?.raw ?? {}, config.stateDir, applyConfig);
  const ui = new UiSessions(() => clock.now());
  const control = createControl({ config, clock, catalog, router, search, sets, gate, usage, baseUrl: () => baseUrl, editor, configPath: opts.configFile?.path ?? null, runtime, events, uiToken: () => ui.link() });
  /** While the proxy is paused, MCP requests get a 503 with a sentence; /control and /ui keep working. */
  const pausedEndpoint = { handle: async () => text(503, 'Working Set is paused. Resume it from the tray, the window or `mws resume`, then try again.') };

  let listener: Listener | undefined;
  let unwatch: (() => void) | undefined;
  let unschedule: (() => Promise<void>) | undefined;
  let sessionTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  return {
    config,
    catalog,
    router,
    search,
    sets,
    gate,
    events,
    control,
    ui,
    endpoints,
    async start(so: StartOptions = {}) {
      await sets.start();
      if (so.listen !== false) {
        const token = await ensureToken(config.stateDir);
        const authorized = (r: Request) => ui.authorized(r) || tokenMatches(r.headers.get('authorization')?.replace(/^Bearer /, ''), token);
        listener = await listen(
          config.listen.host,
          config.listen.port,
          [
            mcpRoute({ endpoint: (id) => (runtime.proxyPaused && endpoints.has(id) ? pausedEndpoint : endpoints.get(id)) }),
            eventsRoute(events, authorized),
            controlRoute(control, () => token, (r) => ui.authorized(r)),
            uiRoute(ui, opts.rendererDir ?? DEFAULT_RENDERER_DIR),
            rootRoute(),
            ...(opts.routes ?? []),
          ],
          opts.fastPath === false ? undefined : createFastPath(router, () => !runtime.proxyPaused),
        );
        baseUrl = listener.url;
        unwatch = seed.watch(() => notifyChanged());
        sessionTimer = setInterval(() => endpoints.forEach((e) => e.sweepIdleSessions()), SESSION_SWEEP_MS);
        sessionTimer.unref();
      }
      const loaded = catalog.start().finally(markReady);
      if (so.listen === false) await loaded; // the CLI needs the toolbox before it can answer
      const afterLoad = loaded.then(async () => {
        // Pins and usage gathered while the app was off are applied once the toolbox is known.
        if (so.schedule !== false && !stopped) await sets.cycle(clock.now());
      });
      afterLoad.catch((err: Error) => log.warn(`first working-set cycle failed: ${err.message}`));
      if (so.schedule !== false) unschedule = startSweepSchedule(sets, clock, log);
      return { url: baseUrl };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(sessionTimer);
      pending.close();
      const steps: Array<() => Promise<void> | void> = [
        () => unschedule?.(),
        () => unwatch?.(),
        () => listener?.close(),
        ...[...endpoints.values()].map((e) => () => e.close()),
        () => catalog.stop(),
        () => callLog.close(),
        () => files.close(),
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
