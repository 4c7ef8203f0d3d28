// Composition root: builds the parts (compose/: stores, upstreams, search, working sets and
// approvals, the router, the routes) and runs them. Each part exports start/stop; stop is idempotent
// and finishes even when a part throws. A config saved while running is applied by reconfigure, which
// puts a new config in force; the one the app was made with is never changed in place.
import type { Config } from './config/schema.js';
import { after, type Clock } from './clock.js';
import type { Logger } from './log.js';
import type { Upstream } from './upstream/types.js';
import { registerBuiltin } from './upstream/transports.js';
import { createDemoServer } from './demo/server.js';
import { startSweepSchedule } from './workingset/scheduler.js';
import type { WorkingSets } from './workingset/manager.js';
import type { ApprovalGate } from './approvals/gate.js';
import type { ToolRouter } from './proxy/toolRouter.js';
import type { AgentEndpoint } from './proxy/endpoint.js';
import { listen, type Listener } from './http/listener.js';
import type { Handler } from './http/routes.js';
import { createFastPath } from './proxy/fastPath.js';
import type { ToolboxCatalog } from './toolbox/merge.js';
import type { SearchService } from './search/service.js';
import { removeLeftoverTemps } from './store/atomicJson.js';
import { CoreEvents } from './control/events.js';
import { createControl } from './control/methods.js';
import { ToolboxCosts } from './control/report/toolboxCosts.js';
import { metaTools } from './metaTools/definitions.js';
import { ensureToken } from './store/controlToken.js';
import type { ControlApi } from './control/api.js';
import { UiSessions } from './http/uiSessions.js';
import type { EdgeTimes } from './http/edgeLimits.js';
import { ConfigEditor, type Raw } from './config/editor.js';
import { validateConfig } from './config/validate.js';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { StateLock } from './store/stateLock.js';
import { listenError } from './listenError.js';
import { decideExposure } from './http/exposure.js';
import { MwsError } from './errors.js';
import { checkStateFiles, ensureStateFolder, stateFolderError } from './store/stateFolder.js';
import type { SecretStore } from './secrets/store.js';
import type { ToolVectors } from './search/embed/toolVectors.js';
import type { OAuthStore } from './upstream/oauth/store.js';
import type { ConfigSource } from './config/source.js';
import type { StateStore } from './statestore/port.js';
import { AppContext } from './compose/context.js';
import { buildStores } from './compose/stores.js';
import { buildUpstreams } from './compose/upstreams.js';
import { buildSearch } from './compose/search.js';
import { buildSets } from './compose/sets.js';
import { buildRouter } from './compose/router.js';
import { reconfigurer } from './compose/reconfigure.js';
import { buildMounts, listenOptions } from './compose/routes.js';
import { Metrics } from './observe/metrics.js';
import { healthHandlers } from './observe/health.js';

/** Reads of another replica's change tried at most, this far apart times the attempt (1 s, 2 s, …). */
const REMOTE_RELOAD_ATTEMPTS = 6;
const REMOTE_RELOAD_RETRY_MS = 1_000;

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
  /** More exact paths on the same listener. */
  routes?: Record<string, Handler>;
  /**
   * The config file the running config came from, for edits from the window (none: not editable).
   * `stateDirDefault`: the state folder a config without "stateDir" means (the one it was loaded with).
   */
  configFile?: { path: string; raw: Raw; stateDirDefault?: string; source?: ConfigSource; version?: string | null };
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
  /**
   * A shared store (statestore/, PostgreSQL) that replicas use together: the agents' working sets,
   * the call records, secrets and sign-ins go there, and changes other replicas make are applied here.
   * The caller opens and closes it. Without one, everything is in the state folder as before.
   */
  stateStore?: StateStore;
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
  /** The config in force (after reconfigure, the new one). */
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
  /**
   * Puts a saved config in force while running (what an edit in the window or of the file does):
   * agents added or removed, upstreams synced, pins and listings updated. The listener's address and
   * the state folder wait for a restart (status says restartNeeded).
   */
  reconfigure(next: Config): Promise<void>;
};

export function createApp(opts: AppOptions): App {
  const { clock, log } = opts;
  // The built-in demo upstream (`kind: "builtin", name: "demo"`) is the app's to offer, not upstream/'s.
  registerBuiltin('demo', () => createDemoServer());
  const events = new CoreEvents();
  const ctx = new AppContext(opts.config, clock, log, events, opts.demo === true);
  const { endpoints, runtime } = ctx;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const shared = opts.stateStore;
  // On a shared store only the fleet's leader runs the working-set cycle; alone, this process leads.
  const lead = shared?.leader ?? (async () => true);
  const leads = shared?.leader;
  const stores = buildStores(ctx, opts.secrets, shared);
  // Every call and search passes through it; the gauges read the parts (told below, once built) when scraped.
  const metrics = new Metrics();
  stores.recorder = metrics.recorder(stores.recorder);
  shared?.stats?.onQuery((s, ok) => metrics.query(s, ok));
  events.on((e) => {
    if (e.type === 'toolsDemoted') metrics.demoted(e.cause, e.tools.length);
  });
  const { secrets, callLog, seed, usage, files } = stores;
  const up = buildUpstreams(ctx, stores, shared && !opts.oauthStore ? { ...opts, oauthStore: shared.oauth } : opts);
  const { catalog } = up;
  const searching = buildSearch(ctx, stores, catalog, opts.modelDir);
  const { learning, vectors, search } = searching;
  const deciding = buildSets(ctx, stores, catalog, opts.approvalKeepAliveMs);
  const { pending, sets, gate } = deciding;
  metrics.observe({
    upstreams: () => catalog.statuses().map((u) => ({ vendor: u.vendor, status: u.status })),
    setSizes: () => ctx.config.agents.flatMap((a) => (sets.states.loaded(a.id) ? [{ agent: a.id, size: sets.members(a.id).length }] : [])),
    approvalsWaiting: () => pending.list().length,
    ...(shared?.stats ? { pool: shared.stats.pool } : {}),
  });
  const health = healthHandlers({
    ...(shared ? { checkDatabase: () => shared.check() } : {}),
    upstreams: () => catalog.statuses().map((u) => u.status),
  });
  const routing = buildRouter(ctx, stores, up, searching, deciding, ready);
  const { router, notifyChanged } = routing;
  const reconfigure = reconfigurer(ctx, up, deciding, routing, search, {
    ...(opts.transform ? { transform: opts.transform } : {}),
    // The demo serves its own toolbox whatever the file names: only a change to the file's upstreams waits for a restart.
    ...(opts.demo && opts.configFile ? { fileUpstreams: fileUpstreamsOf(opts.configFile) } : {}),
  });
  const stateDir = ctx.config.stateDir;
  const editor = new ConfigEditor(
    opts.configFile?.source ?? opts.configFile?.path,
    opts.configFile?.raw ?? {},
    opts.configFile?.stateDirDefault ?? stateDir,
    reconfigure,
    log,
    opts.configFile?.version,
  );
  const ui = new UiSessions(ctx.now, () => ctx.config.uiSessions);
  /** The parts the app shows its callers, and the ControlApi works on. */
  const parts = { catalog, router, search, vectors, sets, gate, events };
  // The whole toolbox is counted in the background once it settles, so the first report is quick.
  const costs = new ToolboxCosts({
    stateDir,
    toolbox: () => catalog.toolbox(),
    compact: () => ctx.config.compactDescriptions,
    metaTools: () => metaTools(ctx.config.backendHints),
    clock,
    failed: (err) => log.warn(`counting the toolbox's tokens ahead of a report failed: ${err.message}`),
  });
  ctx.toolboxChanged.push(() => costs.changed());
  const control = createControl({
    costs,
    // Read at each use: reconfigure replaces it.
    get config() {
      return ctx.config;
    },
    clock,
    ...parts,
    usage,
    baseUrl: () => ctx.baseUrl,
    editor,
    configPath: opts.configFile?.path ?? null,
    runtime,
    uiToken: () => ui.link(),
    uiRevokeAll: () => ui.revokeAll(),
    secrets,
    droppedCallRecords: (agent) => stores.recorder.droppedRecords(agent),
    // The window's and `mws activity`'s log is the fleet's when the calls are shared.
    ...(shared ? { recentCalls: (o: { agent?: string; limit?: number }) => shared.calls.recent(o) } : {}),
  });

  let listener: Listener | undefined;
  let unwatch: (() => void) | undefined;
  let unshared: (() => void) | undefined;
  let unschedule: (() => Promise<void>) | undefined;
  let sessionTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let stateLock: StateLock | undefined;

  /**
   * Another replica's working-set change, read and applied here. A read that fails (the database
   * slow or away for a moment) is tried again: the notice will not come again, and without the
   * read this replica would list the old set until the next change to that agent.
   */
  const applyRemote = (ids: string[], attempt: number): void => {
    void sets
      .reloadAgents(ids)
      .then(() => {
        // A grant made on another replica releases the calls waiting for it here.
        for (const id of ids)
          for (const tool of gate.releaseGranted(id, (t) => catalog.toolbox().get(t)))
            events.emit({ type: 'approvalDecided', agent: id, tool });
      })
      .catch((err: Error) => {
        const again = !stopped && attempt < REMOTE_RELOAD_ATTEMPTS;
        log.warn(`could not apply another replica's working-set change: ${err.message}${again ? '; trying again' : ''}`);
        if (!again) return;
        after(clock, REMOTE_RELOAD_RETRY_MS * attempt, () => applyRemote(ids, attempt + 1));
      });
  };

  return {
    get config() {
      return ctx.config;
    },
    ...parts,
    control,
    ui,
    endpoints,
    reconfigure,
    async start(so: StartOptions = {}) {
      // First of all: nothing touches the state folder's files before this process owns it.
      if (opts.lock !== false) {
        stateLock = await StateLock.acquire(
          stateDir,
          {
            command: opts.lock?.command ?? (so.listen === false ? 'a Working Set command' : 'Working Set'),
            ...(opts.lock?.waitMs !== undefined ? { waitMs: opts.lock.waitMs } : {}),
          },
          log,
        );
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
      costs.stop();
      pending.close();
      const steps: Array<() => Promise<void> | void> = [
        () => unschedule?.(),
        () => unwatch?.(),
        () => unshared?.(),
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
    await ensureStateFolder(stateDir);
    await checkStateFiles(
      stateDir,
      ctx.config.agents.map((a) => a.id),
    );
    // Owned now (the lock): a temp file here is one a killed writer left, never one being written.
    await removeLeftoverTemps([stateDir, join(stateDir, 'agents')], log);
    try {
      await sets.start();
      // Another replica's change to a working set is applied here and heard by this replica's clients;
      // after a lost connection to the store, everything is read again.
      unshared = shared?.onChange((change) => {
        const ids = change.kind === 'agent' ? [change.agent] : change.kind === 'resync' ? ctx.config.agents.map((a) => a.id) : [];
        if (ids.length) applyRemote(ids, 1);
        if (change.kind === 'resync') void editor.refresh();
        // What another replica's searches taught (or a forget) applies to this replica's ranking too.
        if (change.kind === 'learning' || change.kind === 'resync')
          void learning.pull().catch((err: Error) => log.warn(`could not read what other replicas' searches learned: ${err.message}`));
      });
      await learning.load();
      // What the kept pairs say is built off the request path, in slices, while the proxy starts (not
      // for a CLI command that opens the state folder without serving, nor with learning off).
      if (so.listen !== false && learning.enabled)
        void learning.warmInSlices().catch((err: Error) => log.warn(`learned words could not be built: ${err.message}`));
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code ? stateFolderError(stateDir, err) : err;
    }
    if (so.listen !== false) {
      const token = await ensureToken(stateDir).catch((err: unknown) => Promise.reject(stateFolderError(stateDir, err)));
      const { host, port } = ctx.config.listen;
      // Beyond loopback only with every agent's token and TLS (here or at a trusted proxy): else a sentence.
      const decided = decideExposure(ctx.config);
      if (!decided.ok) throw new MwsError('listen_refused', decided.message, { host, port });
      const opened = await listen(
        host,
        port,
        buildMounts(ctx, up, control, ui, token, {
          secureCookies: decided.exposure.network,
          ...(decided.exposure.publicOrigin ? { publicOrigin: decided.exposure.publicOrigin } : {}),
          health,
          metrics,
          rendererDir: opts.rendererDir ?? DEFAULT_RENDERER_DIR,
          ...(opts.routes ? { routes: opts.routes } : {}),
        }),
        opts.fastPath === false
          ? undefined
          : createFastPath(
              router,
              () => !runtime.proxyPaused,
              (agent, sid) => endpoints.get(agent)?.liveSession(sid),
            ),
        listenOptions(ctx, opts.edgeTimes, decided.exposure),
      ).catch((err: unknown) => Promise.reject(listenError(host, port, err)));
      listener = opened;
      ctx.baseUrl = opened.url;
      const unwatchSeed = seed.watch(() => notifyChanged());
      // Hand edits to the config file are applied live, never overwritten by the next save here.
      const unwatchConfig = editor.watch();
      unwatch = () => {
        unwatchSeed();
        unwatchConfig();
      };
      sessionTimer = setInterval(() => endpoints.forEach((e) => e.sweepIdleSessions()), SESSION_SWEEP_MS);
      sessionTimer.unref();
      // Now the CLI can find this instance through the lock, whatever port it got.
      await stateLock?.listening(ctx.baseUrl);
    }
    const loaded = catalog.start().finally(markReady);
    if (so.listen === false) {
      // The CLI needs the toolbox before it can answer, servers that start slowly included.
      await loaded;
      await catalog.settled(ctx.config.timeouts.connectMs);
    }
    const afterLoad = loaded.then(async () => {
      // Pins and usage gathered while the app was off are applied once the toolbox is known.
      if (so.schedule !== false && !stopped && (await lead())) await sets.cycle(clock.now(), { whenQuiet: true });
    });
    afterLoad.catch((err: Error) => log.warn(`first working-set cycle failed: ${err.message}`));
    if (so.schedule !== false) unschedule = startSweepSchedule(sets, clock, log, leads);
    return { url: ctx.baseUrl };
  }
}

/** The upstreams a config file names (none when it cannot be read as a config): what the demo compares saves with. */
function fileUpstreamsOf(file: { raw: Raw; stateDirDefault?: string }): Config['upstreams'] {
  try {
    return validateConfig(file.raw, file.stateDirDefault ?? '').upstreams;
  } catch {
    return {};
  }
}
