// Composition root: wires config, upstreams, toolbox, search, working sets, approvals, the listener
// and the ControlApi together. Each part exports start/stop; stop is idempotent and finishes even
// when a part throws.
import type { Config } from './config/schema.js';
import type { Clock } from './clock.js';
import type { Logger } from './log.js';
import type { Upstream } from './upstream/types.js';
import { Catalog } from './upstream/catalog.js';
import { registerBuiltin } from './upstream/transports.js';
import { createDemoServer } from './demo/server.js';
import { CallLog } from './usage/callLog.js';
import { UsageStore } from './usage/usageStore.js';
import { SeedWorkingSetFile } from './workingset/seedFile.js';
import { AgentStateFiles } from './workingset/stateFiles.js';
import { WorkingSets } from './workingset/manager.js';
import { promoteHandler } from './metaTools/promote.js';
import { demoteHandler } from './metaTools/demote.js';
import { PendingApprovals } from './approvals/pending.js';
import { ApprovalGate } from './approvals/gate.js';
import { ApprovalGrants } from './approvals/grants.js';
import { ToolRouter } from './proxy/toolRouter.js';
import { CallsInFlight } from './proxy/inFlight.js';
import { AgentLastSeen } from './proxy/lastSeen.js';
import { SearchCallPairing } from './metaTools/searchPairing.js';
import { CALL_LOG_ROTATE_CHECK_MS, rotateCallLog } from './usage/activity.js';
import { AgentEndpoint } from './proxy/endpoint.js';
import { Passthrough } from './proxy/passthrough.js';
import { listen, mcpRoute, type Listener, type Route } from './proxy/listener.js';
import { createFastPath } from './proxy/fastPath.js';
import { buildToolbox, type ToolboxCatalog } from './toolbox/merge.js';
import { SearchService } from './search/service.js';
import { SearchLearning } from './search/learning.js';
import { learningPolicy } from './search/learningScope.js';
import { saveFailed } from './store/writeFailure.js';
import { transcriptLearner } from './search/transcriptPairs.js';
import { searchToolsHandler } from './metaTools/searchTools.js';
import { CoreEvents } from './control/events.js';
import { createControl } from './control/core.js';
import { controlRoute } from './control/http.js';
import { ensureToken } from './store/controlToken.js';
import type { ControlApi } from './control/api.js';
import { eventsRoute } from './control/sse.js';
import { UiSessions, uiRoute } from './control/uiRoute.js';
import { renewRoute } from './control/sessionRenew.js';
import type { EdgeTimes } from './proxy/edgeLimits.js';
import { rootRoute } from './control/signInPage.js';
import { ConfigEditor, type Raw } from './config/editor.js';
import { tokenMatches } from './store/controlToken.js';
import { fileURLToPath } from 'node:url';
import { text } from './proxy/listener.js';
import { StateLock } from './store/stateLock.js';
import { listenError } from './listenError.js';
import { checkStateFiles, ensureStateFolder, stateFolderError } from './store/stateFolder.js';
import { agentGate } from './proxy/agentAccess.js';
import { FileSecretStore, type SecretStore } from './secrets/store.js';
import { ToolVectors, vectorOfQuery } from './search/embed/toolVectors.js';
import { loadEmbedder } from './search/embed/loadEmbedder.js';
import { OAuthUpstreams } from './upstream/oauth/manager.js';
import { FileOAuthStore, type OAuthStore } from './upstream/oauth/store.js';
import { oauthCallbackRoute } from './proxy/oauthCallback.js';

/** How often idle 2025 sessions are looked for (they close after LEGACY_SESSION_IDLE_MS). */
const SESSION_SWEEP_MS = 60 * 1000;

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
  /**
   * The config file the running config came from, for edits from the window (none: not editable).
   * `stateDirDefault`: the state folder a config without "stateDir" means (the one it was loaded with).
   */
  configFile?: { path: string; raw: Raw; stateDirDefault?: string };
  /** Applied to every config loaded or saved while running (the CLI's --demo and --port). */
  transform?: (c: Config) => Config;
  /**
   * The built-in demo is served (--demo on a config without upstreams). The window says so; the demo's
   * toolbox and state folder stay for the whole run — an upstream saved meanwhile waits for a restart
   * instead of silently swapping the toolbox under the demo's state.
   */
  demo?: boolean;
  /** How often a call waiting for approval sends its client progress (default APPROVAL_KEEPALIVE_MS). */
  approvalKeepAliveMs?: number;
  /** The listener's request and connection times (default EDGE_TIMES); tests make them short. */
  edgeTimes?: Partial<EdgeTimes>;
  /** The built settings window, served at /ui (default: out/renderer of this package). */
  rendererDir?: string;
  /** The sentence model's folder (default: resources/model/<name> of this package; the desktop app's own resources). */
  modelDir?: string;
  /**
   * Who takes the state folder's lock at start (store/stateLock.ts), as other processes will see it
   * named: "mws serve", "mws promote", … false only for tests that build parts without starting them.
   */
  lock?: { command: string; waitMs?: number } | false;
  /**
   * Where secret values and filled-in values live (default: stateDir/secrets.json, 0600). The desktop
   * app passes one that seals them with the OS keychain.
   */
  secrets?: SecretStore;
  /** Where OAuth tokens and client registrations are kept (default: oauth.json in the state folder, 0600). */
  oauthStore?: OAuthStore;
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
  readonly catalog: ToolboxCatalog;
  readonly router: ToolRouter;
  readonly search: SearchService;
  /** Tool vectors for semantic search: nothing is loaded until search calls activate(). */
  readonly vectors: ToolVectors;
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
  // The built-in demo upstream (`kind: "builtin", name: "demo"`) is the app's to offer, not upstream/'s.
  registerBuiltin('demo', () => createDemoServer());
  const endpoints = new Map<string, AgentEndpoint>();
  const events = new CoreEvents();
  const secrets = opts.secrets ?? new FileSecretStore(config.stateDir, log);
  const callLog = new CallLog(config.stateDir, { log, now: () => clock.now() });
  const seed = new SeedWorkingSetFile(config.stateDir, log);
  const usage = new UsageStore(config.stateDir, log);
  const files = new AgentStateFiles(config.stateDir, log);

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let baseUrl = `http://${config.listen.host}:${config.listen.port}`;

  const inFlight = new CallsInFlight();
  const lastSeen = new AgentLastSeen();
  const pairing = new SearchCallPairing();
  const oauth = new OAuthUpstreams({
    store: opts.oauthStore ?? new FileOAuthStore(config.stateDir, log),
    now: () => clock.now(),
    log,
    baseUrl: () => baseUrl,
    onSignInNeeded: (vendor) => events.emit({ type: 'signInNeeded', vendor }),
  });
  /**
   * The catalog and the working sets tell of changes that the router and search, built after them
   * (they read the catalog and the sets), act on: joined below, once both sides exist.
   */
  const toolboxChanged: Array<() => void> = [];
  const setsChanged: Array<(agents: string[]) => void> = [];
  const catalog = new Catalog({
    config,
    build: buildToolbox,
    log,
    now: () => clock.now(),
    onChange: () => toolboxChanged.forEach((f) => f()),
    onStatus: (vendor, status) => events.emit({ type: 'upstreamStatus', vendor, status }),
    onNotification: (_vendor, method, params) => endpoints.forEach((e) => e.notifyUpstream(method, params)),
    values: { secrets, env: process.env },
    oauth,
    ...(opts.connect ? { connect: opts.connect } : {}),
  });
  const passthrough = new Passthrough(catalog, config, log);
  const learning = new SearchLearning({
    stateDir: config.stateDir,
    now: () => clock.now(),
    enabled: () => config.search?.learn !== false,
    // Agents behind tokens learn on their own unless the user shares (search.shareLearning).
    policy: () => learningPolicy({ agents: config.agents, shareLearning: config.search?.shareLearning }),
    log,
    // A learned pair keeps its query's vector (queryMemory.ts): from the query cache, or embedded then.
    vectorOf: (q) => vectorOfQuery(vectors, q),
  });
  const vectors = new ToolVectors({ stateDir: config.stateDir, log, entries: () => [...catalog.toolbox().all()], load: () => loadEmbedder({ log, ...(opts.modelDir ? { modelDir: opts.modelDir } : {}) }) });
  // Hybrid (words and meaning) once the model has read every tool; until then, or if it cannot load, by words.
  const search = new SearchService(() => catalog.toolbox(), config.searchAliases, 'hybrid', learning, vectors);
  // Claude Code transcripts, read by the usage cycle, also teach which tool a search led to.
  usage.onTranscriptLine = transcriptLearner(
    learning,
    () => config.serverName,
    (name) => catalog.toolbox().resolve(name)?.name ?? name,
  );
  // Before the working sets: an agent with a call in the inbox is busy for the sweep.
  const pending = new PendingApprovals(config.timeouts.approvalMs, () => clock.now(), (call) => events.emit({ type: 'approvalPending', call }));
  const sets: WorkingSets = new WorkingSets({
    config,
    clock,
    log,
    files,
    usage,
    seed,
    toolbox: () => catalog.toolbox(),
    // A call whose client was answered while it waits for approval still waits: its agent is busy.
    busy: (agent) => inFlight.count(agent) > 0 || pending.count(agent) > 0,
    lastActive: (agent) => lastSeen.last(agent),
    revoked: () => catalog.revokedVendors(),
    events: {
      changed: (agents) => setsChanged.forEach((f) => f(agents)),
      demoted: (agent, tools, cause) => events.emit({ type: 'toolsDemoted', agent, tools, cause }),
    },
  });
  const grants = new ApprovalGrants(
    { records: (agent) => sets.states.state(agent).approvals, save: (agent) => sets.states.save(agent), failed: (err, what) => saveFailed(err, what, config.stateDir) },
    () => clock.now(),
  );
  const gate = new ApprovalGate(config, grants, pending, () => clock.now(), opts.approvalKeepAliveMs);
  const router: ToolRouter = new ToolRouter({
    config,
    catalog,
    callLog,
    clock,
    ready,
    listing: (agent) => sets.listing(agent),
    hooks: {
      beforeCall: (agent, entry, args, signal, progress) => gate.check(agent, entry, args, signal, progress),
      verdict: (agent, entry) => gate.preview(agent, entry),
      used: (agent, tool, ts, ctx) => {
        sets.markUsed(agent, tool, ts);
        // Learned from only as the answer to this connection's own search, and only if it showed the tool.
        if (pairing.allows(agent, tool, ctx)) learning.called(agent, tool);
      },
    },
    closeNames: (name) => search.closeNames(name, 3),
    inFlight,
    lastSeen,
    log,
  });
  /**
   * Tells agents their list changed: after a set change, the agents named; after a toolbox change
   * (`agents` undefined), every agent whose listing differs or was never computed.
   */
  const notifyChanged = (agents?: string[]) => {
    // A set change recomputes only the agents named: one agent's promote is not 100 agents' listings.
    const r = router.recompute(agents);
    for (const agent of new Set([...r.changed, ...(agents ?? r.unknown)])) {
      endpoints.get(agent)?.notifyToolsChanged();
      events.emit({ type: 'setChanged', agent });
    }
  };
  /** The search index for a new toolbox is built once the change is told, not by the next search. */
  let warmTimer: NodeJS.Timeout | undefined;
  const warmSearch = () => {
    clearTimeout(warmTimer);
    // In slices: calls keep flowing while a big toolbox is indexed.
    warmTimer = setTimeout(() => void search.warmInSlices().catch((err: Error) => log.warn(`search index build failed: ${err.message}`)), 0);
    warmTimer.unref();
  };
  toolboxChanged.push(() => (notifyChanged(), warmSearch(), vectors.update([...catalog.toolbox().all()])));
  setsChanged.push((agents) => notifyChanged(agents));
  router.setMetaHandler('search_tools', searchToolsHandler({ search, listed: (agent) => router.workingSetEntries(agent), callLog, clock, pairing }));
  const setTools = { sets, toolbox: () => catalog.toolbox(), search };
  // Promoting a tool right after a search is an answer to that search, as a call is.
  router.setMetaHandler('promote', promoteHandler({ ...setTools, promoted: (agent, tool, ctx) => pairing.allows(agent, tool, ctx) && learning.called(agent, tool) }));
  router.setMetaHandler('demote', demoteHandler(setTools));
  for (const agent of config.agents) endpoints.set(agent.id, new AgentEndpoint(agent.id, router, log, () => clock.now(), passthrough));
  const runtime = { proxyPaused: false, restartNeeded: false, demo: opts.demo ? { stateDir: config.stateDir } : null };
  const applyConfig = async (saved: Config) => {
    let next = opts.transform?.(saved) ?? saved;
    if (runtime.demo) {
      // The demo runs on until a restart: a saved upstream (leaving the demo, asked in the window) waits for it.
      if (Object.keys(saved.upstreams).length > 0) runtime.restartNeeded = true;
      next = { ...next, upstreams: config.upstreams, prefixNames: config.prefixNames, backendHints: config.backendHints, stateDir: config.stateDir };
    }
    // The listener and the state folder are set at start; a change to them waits for a restart.
    runtime.restartNeeded ||= next.listen.port !== config.listen.port || next.listen.host !== config.listen.host || next.stateDir !== config.stateDir;
    const before = new Set(config.agents.map((a) => a.id));
    Object.assign(config, { ...next, stateDir: config.stateDir });
    for (const a of config.agents) {
      if (before.has(a.id)) continue;
      await sets.ensureAgent(a.id);
      endpoints.set(a.id, new AgentEndpoint(a.id, router, log, () => clock.now(), passthrough));
    }
    for (const id of before) {
      if (config.agents.some((a) => a.id === id)) continue;
      await endpoints.get(id)?.close();
      endpoints.delete(id);
    }
    await catalog.syncUpstreams();
    // A pin added or removed in this edit shows at once, not at the next cycle.
    await sets.reconcilePinsNow();
    // Listings are recomputed (compactDescriptions may have changed); the toolbox itself is not rebuilt.
    notifyChanged(config.agents.map((a) => a.id));
    events.emit({ type: 'settingsChanged' });
  };
  const editor = new ConfigEditor(opts.configFile?.path, opts.configFile?.raw ?? {}, opts.configFile?.stateDirDefault ?? config.stateDir, applyConfig, log);
  const ui = new UiSessions(() => clock.now(), () => config.uiSessions);
  const control = createControl({ config, clock, catalog, router, search, vectors, sets, gate, usage, baseUrl: () => baseUrl, editor, configPath: opts.configFile?.path ?? null, runtime, events, uiToken: () => ui.link(), uiRevokeAll: () => ui.revokeAll(), secrets, droppedCallRecords: (agent) => callLog.droppedRecords(agent) });
  /** While the proxy is paused, MCP requests get a 503 with a sentence; /control and /ui keep working. */
  const pausedEndpoint = { handle: async () => text(503, 'Working Set is paused. Resume it from the tray, the window or `mws resume`, then try again.') };

  let listener: Listener | undefined;
  let unwatch: (() => void) | undefined;
  let unschedule: (() => Promise<void>) | undefined;
  let sessionTimer: NodeJS.Timeout | undefined;
  let rotateTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let stateLock: StateLock | undefined;

  return {
    config,
    catalog,
    router,
    search,
    vectors,
    sets,
    gate,
    events,
    control,
    ui,
    endpoints,
    async start(so: StartOptions = {}) {
      // First of all: nothing touches the state folder's files before this process owns it.
      if (opts.lock !== false) {
        stateLock = await StateLock.acquire(config.stateDir, { command: opts.lock?.command ?? (so.listen === false ? 'a Working Set command' : 'Working Set'), ...(opts.lock?.waitMs !== undefined ? { waitMs: opts.lock.waitMs } : {}) }, log);
      }
      try {
        return await startOwned(so);
      } catch (err) {
        await this.stop();
        throw err;
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(sessionTimer);
      clearInterval(rotateTimer);
      pending.close();
      const steps: Array<() => Promise<void> | void> = [
        () => unschedule?.(),
        () => unwatch?.(),
        () => listener?.close(),
        ...[...endpoints.values()].map((e) => () => e.close()),
        () => catalog.stop(),
        () => callLog.close(),
        () => learning.stopWarming(),
        () => learning.flush(),
        () => vectors.stop(),
        () => files.close(),
        // Last: the folder is free only once every file in it is written.
        () => stateLock?.release(),
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

  async function startOwned(so: StartOptions): Promise<{ url: string }> {
    await ensureStateFolder(config.stateDir);
    await checkStateFiles(config.stateDir, config.agents.map((a) => a.id));
    try {
      await sets.start();
      await learning.load();
      // What the kept pairs say is built off the request path, in slices, while the proxy starts (not
      // for a CLI command that opens the state folder without serving, nor with learning off).
      if (so.listen !== false && learning.enabled) void learning.warmInSlices().catch((err: Error) => log.warn(`learned words could not be built: ${err.message}`));
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code ? stateFolderError(config.stateDir, err) : err;
    }
    if (so.listen !== false) {
      const token = await ensureToken(config.stateDir).catch((err: unknown) => Promise.reject(stateFolderError(config.stateDir, err)));
      const authorized = (r: Request) => ui.authorized(r) || tokenMatches(r.headers.get('authorization')?.replace(/^Bearer /, ''), token);
      const opened = await listen(
        config.listen.host,
        config.listen.port,
        [
          oauthCallbackRoute(oauth.flows, log),
          mcpRoute({ endpoint: (id) => (runtime.proxyPaused && endpoints.has(id) ? pausedEndpoint : endpoints.get(id)) }),
          eventsRoute(events, authorized),
          controlRoute(control, () => token, (r) => ui.authorized(r)),
          renewRoute(ui),
          uiRoute(ui, opts.rendererDir ?? DEFAULT_RENDERER_DIR),
          rootRoute(),
          ...(opts.routes ?? []),
        ],
        opts.fastPath === false ? undefined : createFastPath(router, () => !runtime.proxyPaused, (agent, sid) => endpoints.get(agent)?.liveSession(sid)),
        { log, mcpGate: (id, authorization) => agentGate(config, id, authorization), ...(opts.edgeTimes ? { edgeTimes: opts.edgeTimes } : {}) },
      ).catch((err: unknown) => Promise.reject(listenError(config.listen.host, config.listen.port, err)));
      listener = opened;
      baseUrl = opened.url;
      const unwatchSeed = seed.watch(() => notifyChanged());
      // Hand edits to the config file are applied live, never overwritten by the next save here.
      const unwatchConfig = editor.watch();
      unwatch = () => {
        unwatchSeed();
        unwatchConfig();
      };
      sessionTimer = setInterval(() => endpoints.forEach((e) => e.sweepIdleSessions()), SESSION_SWEEP_MS);
      sessionTimer.unref();
      // The activity log stays bounded on disk: calls.jsonl moves aside past activity.maxFileMB.
      const rotate = () => rotateCallLog(config.stateDir, callLog, config.activity.maxFileMB * 1024 * 1024);
      rotate();
      rotateTimer = setInterval(rotate, CALL_LOG_ROTATE_CHECK_MS);
      rotateTimer.unref();
      // Now the CLI can find this instance through the lock, whatever port it got.
      await stateLock?.listening(baseUrl);
    }
    const loaded = catalog.start().finally(markReady);
    if (so.listen === false) {
      // The CLI needs the toolbox before it can answer, servers that start slowly included.
      await loaded;
      await catalog.settled(config.timeouts.connectMs);
    }
    const afterLoad = loaded.then(async () => {
      // Pins and usage gathered while the app was off are applied once the toolbox is known.
      if (so.schedule !== false && !stopped) await sets.cycle(clock.now(), { whenQuiet: true });
    });
    afterLoad.catch((err: Error) => log.warn(`first working-set cycle failed: ${err.message}`));
    if (so.schedule !== false) {
      // node-cron loads once the listener is open: nothing before the first request needs it.
      const scheduled = import('./workingset/scheduler.js').then(({ startSweepSchedule }) => {
        if (!stopped) unschedule = startSweepSchedule(sets, clock, log);
      });
      scheduled.catch((err: Error) => log.warn(`the five-minute sweep could not be scheduled: ${err.message}`));
    }
    return { url: baseUrl };
  }
}
