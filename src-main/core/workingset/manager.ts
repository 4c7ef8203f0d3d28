// Every agent's working set, kept right over time: the facade the proxy, the ControlApi and the CLI
// use. Each job lives in its own file — the states (registry.ts), where pins come from
// (pinSources.ts), reading usage (ingest.ts), what the list shows (listing.ts), previews (previews.ts),
// one pass of the rules (cycle.ts) and what a decision does (apply.ts); this class applies decisions (saving, recording
// history, telling listeners) and runs the cycle. Approval grants are in approvals/grants.ts.
import type { AgentConfig, Config } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { MwsError } from '../errors.js';
import type { Toolbox, ToolEntry } from '../toolbox/toolbox.js';
import type { UsageStore } from '../usage/usageStore.js';
import type { SeedWorkingSetFile } from './seedFile.js';
import type { AgentStateStore } from './stateFiles.js';
import { AgentStates, type MemberView } from './registry.js';
import { PinSources } from './pinSources.js';
import { UsageIngest } from './ingest.js';
import { countListed, listingOrder, meetNames } from './listing.js';
import { applyDecision, applyPinMark, isPinMark, type PromotionFacts } from './apply.js';
import { decideCycle, type CycleInputs } from './cycle.js';
import { previewSweep, previewUsage } from './previews.js';
import { isQuiet } from './quiet.js';
import type { UsageCandidate } from './usagePromotion.js';
import { reconcilePins, type PinChange } from './pins.js';
import type { Decision, DemoteCause, HistoryEntry, ToolState } from './types.js';
import { currentActor } from '../actor.js';
import { SerialQueue } from '../serial.js';

export type { MemberView } from './registry.js';

export type WorkingSetEvents = {
  /** Agents whose listed tools changed: their connections hear list_changed. */
  changed(agents: string[]): void;
  /** Tools the rules (or a revocation) took out, one call per agent and cause: desktop notifications. */
  demoted(agent: string, tools: string[], cause: DemoteCause): void;
};

export type WorkingSetsOptions = {
  config: Config;
  clock: Clock;
  log: Logger;
  files: AgentStateStore;
  usage: UsageStore;
  seed: SeedWorkingSetFile;
  toolbox: () => Toolbox;
  /** An agent with a call in flight, or one waiting for approval. */
  busy: (agent: string) => boolean;
  /** Configured vendors whose upstream revoked our access. */
  revoked?: () => ReadonlySet<string>;
  /** When the agent last sent a request (quiet.ts: the scheduled cycle waits for quiet agents). */
  lastActive?: (agent: string) => number | undefined;
  events: WorkingSetEvents;
};

/** `held`: decided, but left until the agent is quiet (a cycle run `whenQuiet`). */
export type CycleReport = { decisions: Decision[]; usage: Record<string, UsageCandidate[]>; held?: Decision[] };

export class WorkingSets {
  /** The agents' states; approval grants (approvals/grants.ts) are kept in the same files. */
  readonly states: AgentStates;
  private readonly pins: PinSources;
  /** While true the sweep decides nothing: the tray's "pause automatic demotion". */
  demotionPaused = false;
  private readonly ingestion: UsageIngest;
  private readonly orders = new Map<string, { rev: number; inputs: readonly unknown[]; names: readonly string[] }>();
  private readonly listings = new Map<string, { names: readonly string[]; toolbox: object; entries: ToolEntry[] }>();
  /** Per agent, a count moved on by every history line written here, or by a read of the agent from the shared store. */
  private readonly historyRevisions = new Map<string, number>();
  /** When start() ran: an agent not seen since is not quiet before quietMinutes past it (quiet.ts). */
  private startedAt: number | undefined;
  /** Cycles run one after another: each decides from the state the one before left. */
  private readonly cycles = new SerialQueue();

  constructor(private readonly o: WorkingSetsOptions) {
    this.states = new AgentStates(o);
    this.pins = new PinSources(o);
    // `config` is read through `o` at each use: the app may hand its parts a new config while running.
    this.ingestion = new UsageIngest({
      ...o,
      get config() {
        return o.config;
      },
      pins: this.pins,
      markUsed: (agent, tool, ts) => this.markUsed(agent, tool, ts),
    });
  }

  async start(): Promise<void> {
    this.startedAt = this.o.clock.now();
    await this.o.usage.load();
    await this.states.start();
    await this.pins.load();
  }

  /** Loads the state of an agent added while running. */
  ensureAgent(id: string): Promise<void> {
    return this.states.ensureAgent(id);
  }

  /**
   * Another replica changed these agents' states in the shared store: read them again (after any cycle
   * under way) and tell the listeners of those whose list changed.
   */
  async reloadAgents(ids: string[]): Promise<void> {
    await this.cycles.run(async () => {
      const changed: string[] = [];
      for (const id of ids) {
        if (await this.states.reload(id)) changed.push(id);
        // Another replica may have written history without changing what the agent lists.
        this.historyWritten(id);
      }
      if (changed.length) this.o.events.changed(changed);
    });
  }

  agent(id: string): AgentConfig {
    return this.states.agent(id);
  }

  /**
   * Differs from any answered before whenever the agent's history may have gained lines: what is counted
   * from it is kept until then (the report's counts). A change to a tool no upstream lists writes history
   * without changing the listing, so listing events cannot say it.
   */
  historyRevision(agent: string): number {
    return this.historyRevisions.get(agent) ?? 0;
  }

  private historyWritten(agent: string): void {
    this.historyRevisions.set(agent, this.historyRevision(agent) + 1);
  }

  /** The names an agent lists (before meeting the toolbox): by promotion time, pins not yet members last. */
  /**
   * The agent's names in listing order (listing.ts), kept until its tools or its pins change: a report
   * asks for every agent's, and sorting 26,000 members each time was a fifth of it.
   */
  names(agent: string): readonly string[] {
    const a = this.agent(agent);
    const rev = this.states.revision(agent);
    const inputs = this.pins.fixedInputs(a);
    const hit = this.orders.get(agent);
    if (hit && hit.rev === rev && hit.inputs.every((x, i) => x === inputs[i])) return hit.names;
    const names = listingOrder(this.pins.fixed(a).keys(), this.states.state(agent).tools);
    this.orders.set(agent, { rev, inputs, names });
    return names;
  }

  /**
   * What an agent lists, in order (listing.ts): the same array until its names (kept as names() keeps
   * them) or the toolbox change, so what is derived from it can be kept as long (the report's listings).
   * Read-only for callers.
   */
  listing(agent: string): ToolEntry[] {
    const names = this.names(agent);
    const toolbox = this.o.toolbox();
    const hit = this.listings.get(agent);
    if (hit && hit.names === names && hit.toolbox === toolbox) return hit.entries;
    const entries = meetNames(names, toolbox);
    this.listings.set(agent, { names, toolbox, entries });
    return entries;
  }

  members(agent: string): MemberView[] {
    return this.states.members(agent);
  }

  /** Moves on with every change to the agent's members, a last use included (AgentStates.memberRevision). */
  memberRevision(agent: string): number {
    return this.states.memberRevision(agent);
  }

  /** The agent's members by name, as they are (read-only: change them only through the rules). */
  memberStates(agent: string): Readonly<Record<string, Readonly<ToolState>>> {
    return this.states.state(agent).tools;
  }

  history(agent: string): Promise<HistoryEntry[]> {
    return this.states.history(agent);
  }

  /** The count an agent's list holds now: what promote and demote answer. */
  listedCount(agent: string): number {
    return countListed(this.pins.fixed(this.agent(agent)).keys(), this.states.state(agent).tools, this.o.toolbox());
  }

  /** The agent or the user brings a tool in. Answers whether anything changed. */
  async promote(agent: string, tool: string, vendor: string, cause: 'agent' | 'user'): Promise<boolean> {
    const st = this.states.state(agent);
    if (st.tools[tool] || this.pins.fixed(this.agent(agent)).has(tool)) return false;
    await this.apply([{ agent, tool, action: 'promote', cause, vendor }]);
    return true;
  }

  /** The agent or the user takes a tool out. Pins stay: they are the user's standing choice. */
  async demote(agent: string, tool: string, cause: 'agent' | 'user'): Promise<boolean> {
    const st = this.states.state(agent);
    const pin = this.pins.fixed(this.agent(agent)).get(tool) ?? st.tools[tool]?.pinned;
    if (pin) {
      const where = pin === 'config' ? 'the config ("pins")' : pin === 'seed' ? 'working-set.json' : 'a pin file';
      throw new MwsError('usage', `${tool} is pinned by ${where}, so it stays listed. Remove the pin there to let it go.`, { tool, pin });
    }
    if (!st.tools[tool]) return false;
    await this.apply([{ agent, tool, action: 'demote', cause }]);
    return true;
  }

  /** A successful call: the idle clock restarts now, without waiting for the next cycle. */
  markUsed(agent: string, tool: string, ts: number): void {
    this.states.markUsed(agent, tool, ts);
  }

  /** Configured vendors whose access is not revoked. */
  private vendors(): Set<string> {
    const revoked = this.o.revoked?.() ?? new Set<string>();
    return new Set(Object.keys(this.o.config.upstreams).filter((v) => !revoked.has(v)));
  }

  /** What the sweep would decide at `now`, without changing anything. */
  previewSweep(now: number, agents?: string[]): Decision[] {
    return previewSweep(this.states, this.states.ids(agents), this.vendors(), this.o.busy, now);
  }

  /**
   * What the sweep would demote at `now`: the very cycle the schedule runs (usage read, pins reconciled,
   * usage promotions, then the sweep, skipped while demotion is paused), as a dry run, keeping only its
   * demotions. A separate preview of the sweep rule alone would miss a pin not yet reconciled and
   * predict demoting a pinned tool.
   */
  async sweepPreview(now: number, agents?: string[]): Promise<Decision[]> {
    return (await this.cycle(now, { dryRun: true, ...(agents ? { agents } : {}) })).decisions.filter((d) => d.action === 'demote');
  }

  /**
   * Pins take effect at once, not at the next cycle: after a config edit the set gains its new pins
   * (or an existing member is marked pinned) and loses its old ones now, and listeners hear it.
   * (working-set.json's names are listed as soon as the file changes; the cycle records them.)
   */
  async reconcilePinsNow(now = this.o.clock.now()): Promise<Decision[]> {
    const known = this.known();
    const out: Decision[] = [];
    for (const a of this.o.config.agents) {
      const st = this.states.loaded(a.id);
      if (!st) continue;
      let changes = reconcilePins(
        a.id,
        st,
        { fixed: this.pins.fixed(a), files: this.pins.files(), pinDecayDays: this.o.config.promote.pinDecayDays },
        known,
        now,
      );
      // Pin files are read by the cycle; until it has read them once, their pins are left as they are.
      if (!this.pins.filesRead) changes = changes.filter((c) => st.tools[c.tool]?.pinned !== 'file');
      out.push(...(await this.applyPinChanges(changes, now)));
    }
    return out;
  }

  /** Usage scores per agent at `now`. */
  previewUsage(now: number, agents?: string[]): Record<string, UsageCandidate[]> {
    return previewUsage(
      this.states,
      this.states.ids(agents),
      (id) => this.o.usage.usage(id),
      (id) => this.o.usage.runs(id),
      this.o.config.promote,
      this.known(),
      now,
    );
  }

  /**
   * One pass of the rules: read new usage, reconcile pins, promote by usage, then sweep (idle, cap,
   * revoked). With `dryRun`, answers the same decisions and changes nothing. With `whenQuiet` (the
   * schedule), an agent active within `listChanges.quietMinutes` keeps its list: its promotions and
   * idle/cap demotions are held for a later cycle. A cycle the user asks for applies at once.
   */
  cycle(now: number, opts: { dryRun?: boolean; agents?: string[]; whenQuiet?: boolean } = {}): Promise<CycleReport> {
    return this.cycles.run(() => this.cycleNow(now, opts));
  }

  private async cycleNow(now: number, opts: { dryRun?: boolean; agents?: string[]; whenQuiet?: boolean }): Promise<CycleReport> {
    await this.ingest(now);
    const known = this.known();
    const vendors = this.vendors();
    const decisions: Decision[] = [];
    const held: Decision[] = [];
    const usage: Record<string, UsageCandidate[]> = {};
    const quietMs = this.o.config.listChanges.quietMinutes * 60_000;
    for (const id of this.states.ids(opts.agents)) {
      const a = this.agent(id);
      const busy = this.o.busy(id);
      const inputs: CycleInputs = {
        fixed: this.pins.fixed(a),
        files: this.pins.files(),
        promote: this.o.config.promote,
        usage: this.o.usage.usage(id),
        runs: this.o.usage.runs(id),
        cap: a.cap,
        idleWindowDays: a.idleWindowDays,
        vendors,
        busy,
        sweep: !this.demotionPaused,
        known,
        facts: this.facts(id),
        quiet: !opts.whenQuiet || isQuiet(this.o.lastActive?.(id), busy, now, quietMs, this.startedAt),
      };
      const r = decideCycle(id, this.states.state(id), inputs, now);
      usage[id] = r.usage;
      held.push(...r.held);
      if (opts.dryRun) {
        decisions.push(...r.pinChanges.filter((c): c is Decision => !isPinMark(c)), ...r.promotions, ...r.demotions);
        continue;
      }
      decisions.push(...(await this.applyPinChanges(r.pinChanges, now)));
      await this.apply(r.promotions, now);
      decisions.push(...r.promotions);
      await this.apply(r.demotions, now);
      decisions.push(...r.demotions);
    }
    if (!opts.dryRun) {
      await this.o.usage.prune(
        now,
        Math.max(this.o.config.promote.windowDays, this.o.config.promote.keepDays, ...this.o.config.agents.map((a) => a.idleWindowDays)),
      );
      await this.o.usage.save();
    }
    return { decisions, usage, ...(opts.whenQuiet ? { held } : {}) };
  }

  /**
   * Reads the calls, transcripts and pin files gained since the last read, and persists what it read
   * with the cursors. One read at a time: a caller arriving while one is in flight waits for it and for
   * the next read, begun after it asked (workingset/ingest.ts).
   */
  ingest(now: number): Promise<void> {
    return this.ingestion.run(now);
  }

  /** `f` runs after each read of usage that succeeded; answers how to stop it. */
  onIngested(f: () => void): () => void {
    this.ingestion.read.add(f);
    return () => this.ingestion.read.delete(f);
  }

  private known(): Map<string, string> {
    return new Map([...this.o.toolbox().all()].map((e) => [e.name, e.vendor]));
  }

  /** What a promotion records: the decision's vendor (else the toolbox's) and the last use usage.json holds. */
  private facts(agent: string): PromotionFacts {
    return (tool, d) => ({
      vendor: d.vendor ?? this.o.toolbox().get(tool)?.vendor ?? '',
      lastUsedAt: this.o.usage.lastUsed(agent)[tool] ?? null,
    });
  }

  private async applyPinChanges(changes: PinChange[], now: number): Promise<Decision[]> {
    const decisions: Decision[] = [];
    const marked = new Set<string>();
    for (const c of changes) {
      if (isPinMark(c)) {
        if (await this.states.change(c.agent, `the pin of ${c.tool}`, (st) => applyPinMark(st, c))) marked.add(c.agent);
      } else decisions.push(c);
    }
    await this.apply(decisions, now);
    // A member pinned or unpinned keeps its place in the listing (listing.ts); its agent is named all
    // the same, and listeners recompute its listing and tell it only if what it lists differs.
    if (marked.size) this.o.events.changed([...marked]);
    return decisions;
  }

  /**
   * Applies decisions to the states, saves them, records history and tells listeners. An agent whose
   * state could not be saved keeps its old state (the change is not applied, nor recorded); the others
   * go ahead, and the first failure is thrown after (disk_full, state_unwritable).
   */
  private async apply(decisions: Decision[], now = this.o.clock.now()): Promise<void> {
    if (decisions.length === 0) return;
    const byAgent = new Map<string, Decision[]>();
    for (const d of decisions) {
      const list = byAgent.get(d.agent);
      if (list) list.push(d);
      else byAgent.set(d.agent, [d]);
    }
    const touched: string[] = [];
    const demoted = new Map<string, string[]>();
    let failed: unknown;
    for (const [agent, list] of byAgent) {
      let applied: Decision[];
      try {
        applied = await this.states.change(agent, describeChange(list), (st) =>
          list.filter((d) => applyDecision(st, d, now, this.facts(agent))),
        );
      } catch (err) {
        failed ??= err;
        continue;
      }
      if (applied.length === 0) continue;
      touched.push(agent);
      for (const d of applied) {
        if (d.action === 'demote' && d.cause !== 'agent' && d.cause !== 'user') {
          const k = `${d.agent}\u0000${d.cause}`;
          const tools = demoted.get(k);
          if (tools) tools.push(d.tool);
          else demoted.set(k, [d.tool]);
        }
      }
      // After the save: the history never tells of a change the set file does not hold. One write
      // for the agent's changes (a start that pins 500 tools wrote 500 lines one by one).
      const by = currentActor()?.name;
      const ts = new Date(now).toISOString();
      this.o.files.appendHistory(
        agent,
        applied.map((d) => ({
          ts,
          tool: d.tool,
          action: d.action,
          cause: d.cause,
          ...(by ? { by } : {}),
          ...(d.vendor ? { vendor: d.vendor } : {}),
        })),
      );
      this.historyWritten(agent);
    }
    if (touched.length) this.o.events.changed(touched);
    for (const [k, tools] of demoted) {
      const [agent, cause] = k.split('\u0000') as [string, DemoteCause];
      this.o.events.demoted(agent, tools, cause);
    }
    if (failed !== undefined) throw failed;
  }
}

/** What a set of decisions changes, for the sentence a failed save answers with. */
function describeChange(list: Decision[]): string {
  const d = list[0]!;
  const verb = d.action === 'promote' ? 'promotion' : 'demotion';
  return list.length === 1 ? `the ${verb} of ${d.tool}` : `${list.length} changes to the working set of "${d.agent}"`;
}
