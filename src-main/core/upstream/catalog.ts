// The last-good catalog: every upstream's latest successful tool list, kept in memory and in
// stateDir/catalog.json, so a dead or hung upstream still shows the tools it had.
import { ListWarnings } from './listWarnings.js';
import { runSignIn, type SignInAction, type SignInAnswer } from './signInActions.js';
import type { Tool } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import { probeUpstream, type ProbeResult } from './probe.js';
import { connectionFor } from './connectionFor.js';
import type { SignInResult, Upstream, UpstreamStatusView } from './types.js';
import type { ResolveParts } from '../secrets/refs.js';
import { UpstreamJournal, type UpstreamLogEntry } from './journal.js';
import { UpstreamLanes } from './lanes.js';
import { ListWaits } from './listWaits.js';
import type { OAuthUpstreams } from './oauth/manager.js';
import { MwsError } from '../errors.js';
import { CATALOG_FILE, CatalogFile } from './catalogFile.js';
import { ListAcceptor, type ListState } from './listAccept.js';

export type { UpstreamStatusView } from './types.js';

/**
 * `T` is the merged toolbox (toolbox/toolbox.ts): upstream/ sits below toolbox/, so it holds whatever the
 * app's `build` makes of the lists without knowing its shape.
 */
export type CatalogOptions<T> = {
  config: Config;
  log: Logger;
  now: () => number;
  /**
   * Builds the merged toolbox from each vendor's last-good list. Given by the app (toolbox/merge.ts):
   * upstream/ sits below toolbox/ and keeps the lists, it does not merge them.
   */
  build: (state: ReadonlyMap<string, { tools: readonly Tool[] | undefined }>, prefixNames: boolean) => T;
  /** Called after the merged toolbox changed. */
  onChange: (toolbox: T) => void;
  /** Replaces real connections in unit tests. */
  connect?: (vendor: string) => Upstream;
  /** Called when an upstream's status changes (up ↔ down), for the tray and notifications. */
  onStatus?: (vendor: string, status: string) => void;
  /** Upstream notifications for every client (resources/prompts list_changed, resources/updated). */
  onNotification?: (vendor: string, method: string, params: Record<string, unknown> | undefined) => void;
  /** Where connections read `${secret:…}` / `${input:…}` values when they connect. */
  values?: ResolveParts;
  /** OAuth for HTTP upstreams (none: static headers only). */
  oauth?: OAuthUpstreams;
};

export class Catalog<T> {
  private readonly upstreams = new Map<string, Upstream>();
  private readonly lanes = new UpstreamLanes();
  private readonly state = new Map<string, ListState>();
  private readonly listWarnings: ListWarnings;
  private current: T;
  private refreshing: Promise<void> | undefined;
  /** Each vendor's config as JSON, to tell an edited upstream from an unchanged one. */
  private readonly configs = new Map<string, string>();
  private readonly file: CatalogFile;
  private stopped = false;

  constructor(private readonly opts: CatalogOptions<T>) {
    this.listWarnings = new ListWarnings(opts.log, () => this.opts.config.upstreams);
    this.file = new CatalogFile(join(opts.config.stateDir, CATALOG_FILE), opts.log, opts.now, () =>
      [...this.state].flatMap(([vendor, s]) => (s.tools ? [[vendor, s.tools] as const] : [])),
    );
    for (const vendor of Object.keys(opts.config.upstreams)) {
      this.state.set(vendor, { tools: undefined, source: 'none', listedAt: 0 });
    }
    this.current = opts.build(this.state, opts.config.prefixNames);
  }

  /** Loads the saved catalog as the fallback, connects every upstream and waits for the first list. */
  async start(): Promise<void> {
    const saved = await this.file.read(this.state.keys());
    if (saved.size) {
      for (const [vendor, s] of this.state) {
        const tools = saved.get(vendor);
        if (tools) Object.assign(s, { tools, source: 'file' });
      }
      this.rebuild();
    }
    for (const vendor of this.state.keys()) this.open(vendor);
    this.markOpened();
    await this.refresh();
    // The first list is worth keeping at once: a restart right after start finds it.
    await this.file.flush();
  }

  private open(vendor: string): void {
    // A change that waited its turn past stop() opens nothing: stop closed what there was.
    if (this.stopped) return;
    this.configs.set(vendor, JSON.stringify(this.opts.config.upstreams[vendor]));
    if (this.opts.config.upstreams[vendor]?.enabled === false) {
      // Turned off: not started, and its tools (even the last-good ones) are out of the toolbox.
      const s = this.state.get(vendor);
      if (s) Object.assign(s, { tools: undefined, source: 'none', digests: undefined });
      this.upstreams.delete(vendor);
      this.lastStatus.set(vendor, 'off');
      this.journal(vendor).event('turned off');
      return;
    }
    this.journal(vendor).event(this.lastStatus.get(vendor) === 'off' ? 'turned on; starting' : 'starting');
    const upstream = this.opts.connect?.(vendor) ?? this.connection(vendor);
    this.upstreams.set(vendor, upstream);
    // Its status as it opens (starting): the first list that finds it up is then a change the tray
    // hears of. Recorded only at the first report, an upstream already up by then was never announced
    // and a window or tray drawn before it came up went on saying "down".
    this.lastStatus.set(vendor, upstream.info().status);
  }

  /**
   * Follows the config's upstreams after an edit: new ones are connected, removed ones closed and
   * their tools dropped from the toolbox, edited ones reconnected (their last-good tools stay until
   * the new connection lists).
   */
  async syncUpstreams(): Promise<void> {
    const wanted = this.opts.config.upstreams;
    let removed = false;
    let touched = false;
    for (const vendor of [...this.state.keys()]) {
      if (Object.hasOwn(wanted, vendor)) continue;
      await this.lanes.run(vendor, async () => {
        await this.close(vendor);
        // Its sign-in goes with it, as its secrets do: the next upstream of that name signs in afresh.
        await this.opts.oauth?.store
          .delete(vendor)
          .catch((err: Error) => this.opts.log.warn(`Could not forget the sign-in of removed upstream "${vendor}": ${err.message}`));
        this.upstreams.delete(vendor);
        this.state.delete(vendor);
        this.configs.delete(vendor);
        this.journals.delete(vendor);
      });
      removed = true;
      touched = true;
    }
    for (const vendor of Object.keys(wanted)) {
      if (!this.state.has(vendor)) {
        this.state.set(vendor, { tools: undefined, source: 'none', listedAt: 0 });
        await this.lanes.run(vendor, async () => this.open(vendor));
        touched = true;
      } else if (this.configs.get(vendor) !== JSON.stringify(wanted[vendor])) {
        const wasOff = await this.lanes.run(vendor, async () => {
          const off = this.lastStatus.get(vendor) === 'off';
          await this.reopen(vendor);
          return off;
        });
        // Turned off (or on): its tools leave (or come back to) the toolbox, and clients hear of it.
        if (wanted[vendor]!.enabled === false || wasOff) removed = true;
        touched = true;
      }
    }
    if (removed) {
      this.rebuild();
      this.file.schedule();
    }
    // An edit that left the upstreams alone (an agent's cap, say) lists nothing again.
    if (touched) await this.refresh();
  }

  /** Connects to an upstream that is not (yet) configured, lists it once and disconnects. */
  probe(vendor: string, config: Config['upstreams'][string]): Promise<ProbeResult> {
    return probeUpstream(vendor, config, this.opts);
  }

  /**
   * Connects one upstream again from the start (its config unchanged): a value it waited for was given,
   * so the references are read again. Its last-good tools stay until it lists.
   */
  reconnect(vendor: string): Promise<void> {
    return this.lanes.run(
      vendor,
      async () => {
        if (!this.configured(vendor) || this.stopped) return;
        await this.reopen(vendor);
        await this.relist(vendor);
      },
      'reconnect',
    );
  }

  /** In the running config and known here (a removal is applied in the upstream's lane, after the config changed). */
  private configured(vendor: string): boolean {
    return this.state.has(vendor) && Object.hasOwn(this.opts.config.upstreams, vendor);
  }

  /** Closes the upstream's connection and opens it anew from its config (in its lane: the callers' job). */
  private async reopen(vendor: string): Promise<void> {
    await this.close(vendor);
    this.open(vendor);
  }

  /** Closes the upstream's connection; a failure to close leaves nothing to do. */
  private async close(vendor: string): Promise<void> {
    await this.upstreams
      .get(vendor)
      ?.close()
      .catch(() => {});
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.file.stop();
    this.markOpened();
    await this.file.flush();
    await Promise.all([...this.upstreams.values()].map((u) => u.close().catch(() => {})));
  }

  toolbox(): T {
    return this.current;
  }

  vendors(): string[] {
    return [...this.upstreams.keys()];
  }

  upstream(vendor: string): Upstream | undefined {
    return this.upstreams.get(vendor);
  }

  statuses(): UpstreamStatusView[] {
    // An upstream just removed from the config stays in `state` until its lane closes it: not shown.
    return [...this.state]
      .filter(([vendor]) => this.configured(vendor))
      .map(([vendor, s]) => {
        const off = this.opts.config.upstreams[vendor]?.enabled === false;
        const info = this.upstreams.get(vendor)?.info() ?? {
          vendor,
          kind: this.opts.config.upstreams[vendor]!.kind,
          status: off ? ('off' as const) : ('starting' as const),
          era: undefined,
          lastError: undefined,
        };
        return { ...info, toolCount: s.tools?.length ?? 0, source: s.source };
      });
  }

  /**
   * Restarts one upstream: a stdio server's process is stopped and started again, an HTTP upstream's
   * connection closed and opened again. Its last-good tools stay listed meanwhile. Answers once it
   * listed again, or its list budget ran out (it keeps starting in the background).
   */
  restart(vendor: string): Promise<void> {
    if (!this.configured(vendor)) return Promise.reject(new MwsError('not_found', `No upstream "${vendor}" in the config.`, { vendor }));
    // Decided in its turn: an upstream turned off or removed meanwhile is not started again.
    return this.lanes.run(
      vendor,
      async () => {
        if (!this.configured(vendor)) throw new MwsError('not_found', `No upstream "${vendor}" in the config.`, { vendor });
        if (this.opts.config.upstreams[vendor]?.enabled === false) {
          throw new MwsError('conflict', `Upstream "${vendor}" is turned off; turn it on to start it (mws upstream enable ${vendor}).`, {
            vendor,
          });
        }
        if (this.stopped)
          throw new MwsError('upstream_unavailable', `Working Set is shutting down; upstream "${vendor}" was not restarted.`);
        this.journal(vendor).event('restart asked by the user');
        await this.reopen(vendor);
        await this.relist(vendor);
      },
      'restart',
    );
  }

  /** How many restarts, reconnects and turns on or off of one upstream are running or waiting. */
  pendingChanges(vendor: string): number {
    return this.lanes.depth(vendor);
  }

  /** What one upstream printed on stderr and what happened to its connection, oldest first. */
  log(vendor: string, limit?: number): UpstreamLogEntry[] | undefined {
    if (!this.state.has(vendor)) return undefined;
    return this.journal(vendor).entries(limit);
  }

  private readonly journals = new Map<string, UpstreamJournal>();

  /** Each vendor's log outlives its connections: a restart must not hide why the last one died. */
  private journal(vendor: string): UpstreamJournal {
    let j = this.journals.get(vendor);
    if (!j) this.journals.set(vendor, (j = new UpstreamJournal(this.opts.now)));
    return j;
  }

  /** Re-lists stale upstreams in the background; callers keep being served the current catalog. */
  refreshIfStale(): void {
    const ttl = this.opts.config.timeouts.catalogTtlMs;
    const now = this.opts.now();
    const stale = [...this.state.values()].some((s) => now - s.listedAt >= ttl);
    if (stale) void this.refresh();
  }

  /** Lists every upstream in parallel, each within the list budget; one refresh at a time. */
  refresh(): Promise<void> {
    this.refreshing ??= this.refreshAll().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshAll(): Promise<void> {
    const budget = this.opts.config.timeouts.listMs;
    const results = await Promise.all(
      [...this.upstreams].map(async ([vendor, u]) => {
        const seq = this.lists.next();
        try {
          const tools = await u.listTools(budget);
          this.listWarnings.listed(vendor);
          return [vendor, tools, seq] as const;
        } catch (err) {
          this.listWarnings.failed(vendor, err, u.info().status, this.stopped);
          const s = this.state.get(vendor);
          if (s) s.listedAt = this.opts.now();
          return [vendor, undefined, seq] as const;
        }
      }),
    );
    let changed = false;
    for (const [vendor, tools, seq] of results) if (tools) changed = (await this.lists.accept(vendor, tools, seq)) || changed;
    this.reportStatuses();
    if (changed) {
      this.rebuild();
      this.file.schedule();
    }
  }

  /** Lists one upstream (it just came up) and merges its tools, outside any refresh in flight. */
  async relist(vendor: string): Promise<void> {
    const u = this.upstreams.get(vendor);
    if (!u || this.stopped) return;
    try {
      const seq = this.lists.next();
      const tools = await u.listTools(this.opts.config.timeouts.listMs);
      if (await this.lists.accept(vendor, tools, seq)) {
        this.rebuild();
        await this.file.save();
      }
    } catch (err) {
      if (!this.stopped) this.listWarnings.cameUpUnlisted(vendor, err, u.info().status);
      this.listWaits.wake(vendor);
    }
    this.reportStatuses();
    // Resources and prompts of an upstream that just came up are new to clients too.
    this.opts.onNotification?.(vendor, 'notifications/resources/list_changed', undefined);
    this.opts.onNotification?.(vendor, 'notifications/prompts/list_changed', undefined);
  }

  private readonly lastStatus = new Map<string, string>();
  private markOpened: () => void = () => {};
  /** Resolves once start() has opened the configured upstreams (a sign-in asked for right at start waits for it). */
  private readonly opened = new Promise<void>((resolve) => (this.markOpened = resolve));

  /** Vendors whose upstream refuses our credentials: their tools leave every set (cause `revoked`). */
  revokedVendors(): Set<string> {
    return new Set([...this.upstreams].filter(([, u]) => u.info().status === 'revoked').map(([v]) => v));
  }

  private reportStatuses(): void {
    if (this.stopped) return;
    for (const [vendor, u] of this.upstreams) {
      const info = u.info();
      const status = info.status;
      const before = this.lastStatus.get(vendor);
      this.lastStatus.set(vendor, status);
      // Said once when it starts waiting (headless, the log is where a person looks), not at every refresh.
      if (status === 'needs-value' && before !== status) this.opts.log.warn(info.lastError ?? `upstream "${vendor}" needs a value.`);
      if (before !== undefined && before !== status) this.opts.onStatus?.(vendor, status);
    }
  }

  private readonly listWaits = new ListWaits();
  private readonly lists = new ListAcceptor({
    state: this.state,
    stopped: () => this.stopped,
    now: () => this.opts.now(),
    arrived: (vendor) => this.listWaits.wake(vendor),
  });

  /**
   * Resolves once a vendor that is still starting has listed (or stopped starting), or after `ms`:
   * a call that names a starting upstream's tool waits for it rather than failing as unknown.
   */
  async whenStarted(vendor: string, ms: number): Promise<void> {
    const u = this.upstreams.get(vendor);
    if (!u || u.info().status !== 'starting' || this.state.get(vendor)?.source === 'live') return;
    await this.listWaits.wait(vendor, ms);
  }

  /** Waits (up to `ms`) until no upstream is still starting: for the CLI working without an instance. */
  async settled(ms: number): Promise<void> {
    await Promise.all([...this.upstreams.keys()].map((v) => this.whenStarted(v, ms)));
  }

  /** Builds the toolbox again from the lists it has (what it keeps of them changed: tools hidden or shown). */
  rebuildToolbox(): void {
    this.rebuild();
  }

  private rebuild(): void {
    this.current = this.opts.build(this.state, this.opts.config.prefixNames);
    this.opts.onChange(this.current);
  }

  /** Starts or finds the sign-in of an OAuth upstream. */
  signIn(vendor: string): Promise<SignInResult> {
    return this.withSignIn(vendor, 'signIn');
  }

  async signOut(vendor: string): Promise<{ vendor: string; revoked: boolean }> {
    return { vendor, ...(await this.withSignIn(vendor, 'signOut')) };
  }

  resetSignIn(vendor: string): Promise<SignInResult> {
    return this.withSignIn(vendor, 'resetSignIn');
  }

  /** One of the upstream's sign-in actions, once start() opened it; the tray hears of the status it leaves. */
  private async withSignIn<K extends SignInAction>(vendor: string, action: K): Promise<SignInAnswer<K>> {
    if (this.state.has(vendor)) await this.opened;
    try {
      return await runSignIn(vendor, this.upstreams.get(vendor), action);
    } finally {
      this.reportStatuses();
    }
  }

  private connection(vendor: string): Upstream {
    return connectionFor(
      vendor,
      this.opts.config.upstreams[vendor]!,
      this.opts,
      {
        onToolsChanged: (tools) =>
          void this.lists.accept(vendor, tools).then((changed) => {
            if (!changed) return;
            this.rebuild();
            this.file.schedule();
          }),
        // Came up after a list stopped waiting, or after a restart: list it now, so clients hear list_changed.
        onUp: () => void this.relist(vendor),
        onNotification: (method, params) => this.opts.onNotification?.(vendor, method, params),
        onDown: () => {
          this.listWaits.wake(vendor);
          this.reportStatuses();
        },
      },
      this.journal(vendor),
    );
  }
}
