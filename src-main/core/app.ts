// Composition root: builds the parts (compose/: stores, upstreams, search, working sets and
// approvals, the router, the routes); compose/run.ts runs them. Each part exports start/stop; stop is idempotent
// and finishes even when a part throws. A config saved while running is applied by reconfigure, which
// puts a new config in force; the one the app was made with is never changed in place.
import type { Config } from './config/schema.js';
import type { Clock } from './clock.js';
import type { Logger } from './log.js';
import type { Upstream } from './upstream/types.js';
import { registerBuiltin } from './upstream/transports.js';
import { createDemoServer } from './demo/server.js';
import type { WorkingSets } from './workingset/manager.js';
import type { ApprovalGate } from './approvals/gate.js';
import type { ToolRouter } from './proxy/toolRouter.js';
import type { AgentEndpoint } from './proxy/endpoint.js';
import type { Handler } from './http/routes.js';
import type { ToolboxCatalog } from './toolbox/merge.js';
import type { SearchService } from './search/service.js';
import { CoreEvents } from './control/events.js';
import type { ControlApi } from './control/api.js';
import { UiSessions } from './http/uiSessions.js';
import type { EdgeTimes } from './http/edgeLimits.js';
import { ConfigEditor, type Raw } from './config/editor.js';
import { validateConfig } from './config/validate.js';
import { fileURLToPath } from 'node:url';
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
import { QuietIngest } from './workingset/quietIngest.js';
import { buildRouter } from './compose/router.js';
import { reconfigurer } from './compose/reconfigure.js';
import { countCalls, watchParts } from './compose/observe.js';
import { buildControl } from './compose/control.js';

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

import { AppRun, type StartOptions } from './compose/run.js';

export type { StartOptions };

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
  const { endpoints } = ctx;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const shared = opts.stateStore;
  const stores = buildStores(ctx, opts.secrets, shared);
  // Every call and search passes through it; the gauges read the parts (told below, once built) when scraped.
  const metrics = countCalls(ctx, stores, shared);
  // A serving run reads what was recorded a moment after calls stop (workingset/quietIngest.ts).
  const quietIngest = new QuietIngest({
    log,
    now: () => clock.now(),
    ...(shared?.calls.since ? { shared: true, settleMs: shared.calls.settleMs ?? 0 } : {}),
  });
  stores.recorder = quietIngest.recorder(stores.recorder);
  const upstreamsPart = buildUpstreams(ctx, stores, shared && !opts.oauthStore ? { ...opts, oauthStore: shared.oauth } : opts);
  const { catalog } = upstreamsPart;
  const searchPart = buildSearch(ctx, stores, catalog, opts.modelDir);
  const { vectors, search } = searchPart;
  const setsPart = buildSets(ctx, stores, catalog, opts.approvalKeepAliveMs);
  const { sets, gate } = setsPart;
  const health = watchParts(metrics, ctx, catalog, setsPart, shared);
  const routerPart = buildRouter(ctx, stores, upstreamsPart, searchPart, setsPart, ready);
  const { router } = routerPart;
  const reconfigure = reconfigurer(ctx, upstreamsPart, setsPart, routerPart, search, {
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
  const { control, costs } = buildControl(ctx, stores, parts, { editor, ui, configPath: opts.configFile?.path ?? null, shared });

  const run = new AppRun(
    {
      ctx,
      stores,
      shared,
      upstreamsPart,
      searchPart,
      setsPart,
      routerPart,
      editor,
      ui,
      control,
      costs,
      metrics,
      health,
      markReady,
      quietIngest,
    },
    {
      lock: opts.lock,
      rendererDir: opts.rendererDir ?? DEFAULT_RENDERER_DIR,
      routes: opts.routes,
      fastPath: opts.fastPath !== false,
      edgeTimes: opts.edgeTimes,
    },
  );
  return {
    get config() {
      return ctx.config;
    },
    ...parts,
    control,
    ui,
    endpoints,
    reconfigure,
    start: (so) => run.start(so),
    stop: () => run.stop(),
  };
}

/** The upstreams a config file names (none when it cannot be read as a config): what the demo compares saves with. */
function fileUpstreamsOf(file: { raw: Raw; stateDirDefault?: string }): Config['upstreams'] {
  try {
    return validateConfig(file.raw, file.stateDirDefault ?? '').upstreams;
  } catch {
    return {};
  }
}
