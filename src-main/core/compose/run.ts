// The app's life once its parts are built (app.ts builds them): take the state folder, load what it
// holds, follow the other replicas, open the listener, load the catalog and run the sweep; and stop,
// in the order that leaves every file written, whatever a part throws.
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { ConfigEditor } from '../config/editor.js';
import type { Handler } from '../http/routes.js';
import type { Listener } from '../http/listener.js';
import type { EdgeTimes } from '../http/edgeLimits.js';
import type { UiSessions } from '../http/uiSessions.js';
import type { ControlApi } from '../control/api.js';
import type { ToolboxCosts } from '../control/report/toolboxCosts.js';
import type { Metrics } from '../observe/metrics.js';
import type { StateStore } from '../statestore/port.js';
import { removeLeftoverTemps } from '../store/atomicJson.js';
import { ensureToken } from '../store/controlToken.js';
import { StateLock } from '../store/stateLock.js';
import { checkStateFiles, ensureStateFolder, stateFolderError } from '../store/stateFolder.js';
import { startSweepSchedule } from '../workingset/scheduler.js';
import type { QuietIngest } from '../workingset/quietIngest.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';
import type { UpstreamsPart } from './upstreams.js';
import type { SearchPart } from './search.js';
import type { SetsPart } from './sets.js';
import type { RouterPart } from './router.js';
import type { watchParts } from './observe.js';
import { followReplicas } from './replicas.js';
import { openListener } from './routes.js';

/** How often idle 2025 sessions are looked for (they close after LEGACY_SESSION_IDLE_MS). */
const SESSION_SWEEP_MS = 60 * 1000;

export type StartOptions = {
  /** Open the HTTP listener (false: the CLI working on the state files with no instance running). */
  listen?: boolean;
  /** Run the working-set cycle every five minutes. */
  schedule?: boolean;
};

/** What app.ts built, for the run to start and stop. */
export type BuiltApp = {
  ctx: AppContext;
  stores: Stores;
  shared: StateStore | undefined;
  upstreamsPart: UpstreamsPart;
  searchPart: SearchPart;
  setsPart: SetsPart;
  routerPart: RouterPart;
  editor: ConfigEditor;
  ui: UiSessions;
  control: ControlApi;
  costs: ToolboxCosts;
  metrics: Metrics;
  health: ReturnType<typeof watchParts>;
  /** Resolves the promise calls wait on before the first catalog load. */
  markReady: () => void;
  quietIngest: QuietIngest;
};

/** How the run does its part: the lock's name, the listener's extras (tests make them short). */
export type RunOptions = {
  lock?: { command: string; waitMs?: number } | false | undefined;
  rendererDir: string;
  routes?: Record<string, Handler> | undefined;
  fastPath: boolean;
  edgeTimes?: Partial<EdgeTimes> | undefined;
};

export class AppRun {
  private listener: Listener | undefined;
  private readonly stops: Array<() => unknown> = [];
  private sessionTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private stateLock: StateLock | undefined;

  constructor(
    private readonly b: BuiltApp,
    private readonly opts: RunOptions,
  ) {}

  private get config(): Config {
    return this.b.ctx.config;
  }

  /** Connects upstreams and starts listening; answers the base URL. A start that fails stops what it began. */
  async start(so: StartOptions = {}): Promise<{ url: string }> {
    // First of all: nothing touches the state folder's files before this process owns it.
    const lock = this.opts.lock;
    if (lock !== false) {
      this.stateLock = await StateLock.acquire(
        this.config.stateDir,
        {
          command: lock?.command ?? (so.listen === false ? 'a Working Set command' : 'Working Set'),
          ...(lock?.waitMs !== undefined ? { waitMs: lock.waitMs } : {}),
        },
        this.b.ctx.log,
      );
    }
    try {
      return await this.startOwned(so);
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const { ctx, stores, upstreamsPart, searchPart, setsPart, costs } = this.b;
    clearInterval(this.sessionTimer);
    costs.stop();
    setsPart.pending.close();
    const steps: Array<() => unknown> = [
      ...this.stops.reverse(),
      () => this.listener?.close(),
      ...[...ctx.endpoints.values()].map((e) => () => e.close()),
      () => upstreamsPart.catalog.stop(),
      () => stores.callLog.close(),
      () => searchPart.learning.stopWarming(),
      () => searchPart.learning.flush(),
      () => searchPart.vectors.stop(),
      () => stores.files.close(),
      // Last: the folder is free only once every file in it is written.
      () => this.stateLock?.release(),
    ];
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        ctx.log.warn(`while stopping: ${(err as Error).message}`);
      }
    }
  }

  private async startOwned(so: StartOptions): Promise<{ url: string }> {
    const { ctx, shared, setsPart, upstreamsPart, searchPart, editor } = this.b;
    const { log, clock } = ctx;
    const { catalog } = upstreamsPart;
    const { sets } = setsPart;
    const { learning } = searchPart;
    const stateDir = this.config.stateDir;
    await ensureStateFolder(stateDir);
    await checkStateFiles(
      stateDir,
      this.config.agents.map((a) => a.id),
    );
    // Owned now (the lock): a temp file here is one a killed writer left, never one being written.
    await removeLeftoverTemps([stateDir, join(stateDir, 'agents')], log);
    try {
      await sets.start();
      if (shared) this.stops.push(followReplicas(shared, ctx, { setsPart, catalog, editor, learning, stopped: () => this.stopped }));
      await learning.load();
      // What the kept pairs say is built off the request path, in slices, while the proxy starts (not
      // for a CLI command that opens the state folder without serving, nor with learning off).
      if (so.listen !== false && learning.enabled)
        void learning.warmInSlices().catch((err: Error) => log.warn(`learned words could not be built: ${err.message}`));
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code ? stateFolderError(stateDir, err) : err;
    }
    if (so.listen !== false) await this.listen();
    const loaded = catalog.start().finally(this.b.markReady);
    if (so.listen === false) {
      // The CLI needs the toolbox before it can answer, servers that start slowly included.
      await loaded;
      await catalog.settled(this.config.timeouts.connectMs);
    }
    // On a shared store only the fleet's leader runs the working-set cycle; alone, this process leads.
    const leads = shared?.leader;
    const afterLoad = loaded.then(async () => {
      // Pins and usage gathered while the app was off are applied once the toolbox is known.
      if (so.schedule !== false && !this.stopped && (await (leads?.() ?? true))) await sets.cycle(clock.now(), { whenQuiet: true });
    });
    afterLoad.catch((err: Error) => log.warn(`first working-set cycle failed: ${err.message}`));
    if (so.schedule !== false) {
      const unschedule = startSweepSchedule(sets, clock, log, leads);
      this.stops.push(unschedule);
      // Serving: usage is kept current between cycles, so a report does not read a burst's backlog.
      if (so.listen !== false) {
        this.b.quietIngest.start(() => sets.ingest(clock.now()));
        this.stops.push(() => this.b.quietIngest.stop());
      }
    }
    return { url: ctx.baseUrl };
  }

  private async listen(): Promise<void> {
    const { ctx, stores, editor } = this.b;
    const stateDir = this.config.stateDir;
    const token = await ensureToken(stateDir).catch((err: unknown) => Promise.reject(stateFolderError(stateDir, err)));
    this.listener = await openListener(
      ctx,
      { upstreams: this.b.upstreamsPart, control: this.b.control, ui: this.b.ui, router: this.b.routerPart.router, token },
      {
        rendererDir: this.opts.rendererDir,
        routes: this.opts.routes,
        health: this.b.health,
        metrics: this.b.metrics,
        fastPath: this.opts.fastPath,
        edgeTimes: this.opts.edgeTimes,
      },
    );
    ctx.baseUrl = this.listener.url;
    this.stops.push(stores.seed.watch(() => this.b.routerPart.notifyChanged()));
    // Hand edits to the config file are applied live, never overwritten by the next save here.
    this.stops.push(editor.watch());
    this.sessionTimer = setInterval(() => ctx.endpoints.forEach((e) => e.sweepIdleSessions()), SESSION_SWEEP_MS);
    this.sessionTimer.unref();
    // Now the CLI can find this instance through the lock, whatever port it got.
    await this.stateLock?.listening(ctx.baseUrl);
  }
}
