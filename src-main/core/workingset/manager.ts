// Every agent's working set, kept right over time: applies promotions and demotions (the agent's,
// the user's and the rules'), records history, and runs the cycle the scheduler calls every five
// minutes. Decisions come from the pure functions in sweep.ts, usagePromotion.ts and pins.ts.
import { join } from 'node:path';
import type { AgentConfig, Config } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { MwsError } from '../errors.js';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { fits, seenFilesSchema } from '../store/shapes.js';
import type { Toolbox } from '../toolbox/toolbox.js';
import type { UsageStore } from '../usage/usageStore.js';
import { readPinFiles } from '../usage/pinFiles.js';
import type { SeedWorkingSetFile } from './seedFile.js';
import type { AgentStateFiles } from './store.js';
import { decideSweep } from './sweep.js';
import { decideUsagePromotions, scoreUsage, type UsageCandidate } from './usagePromotion.js';
import { reconcilePins, type PinChange } from './pins.js';
import type { AgentState, Decision, DemoteCause, HistoryEntry, PinSource, ToolState } from './types.js';

const PIN_FILES_SEEN = 'pin-files.json';

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
  files: AgentStateFiles;
  usage: UsageStore;
  seed: SeedWorkingSetFile;
  toolbox: () => Toolbox;
  /** An agent with a call in flight, or one waiting for approval. */
  busy: (agent: string) => boolean;
  /** Configured vendors whose upstream revoked our access. */
  revoked?: () => ReadonlySet<string>;
  events: WorkingSetEvents;
};

export type MemberView = ToolState & { tool: string };
export type CycleReport = { decisions: Decision[]; usage: Record<string, UsageCandidate[]> };

export class WorkingSets {
  private readonly states = new Map<string, AgentState>();
  private pinFilesSeen: Record<string, number> = {};
  private filePins: string[] = [];
  private filePinsRead = false;
  /** While true the sweep decides nothing: the tray's "pause automatic demotion". */
  demotionPaused = false;
  /** The read of the logs in flight: a second reader (a report, the cycle) shares it, never re-reads. */
  private ingesting: Promise<void> | undefined;
  /** Cycles run one after another: a dry run restores the states it copied, so it must not overlap. */
  private cycles: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: WorkingSetsOptions) {}

  async start(): Promise<void> {
    await this.o.usage.load();
    for (const a of this.o.config.agents) this.states.set(a.id, await this.load(a.id));
    const seen = await readJsonSafe(join(this.o.config.stateDir, PIN_FILES_SEEN), this.o.log, fits(seenFilesSchema));
    if (seen.kind === 'ok') this.pinFilesSeen = seen.value;
  }

  /** Loads the state of an agent added while running. */
  async ensureAgent(id: string): Promise<void> {
    if (!this.states.has(id)) this.states.set(id, await this.load(id));
  }

  /**
   * An agent's set, with each tool's idle clock brought up to the last use usage.json holds: that
   * file is written atomically with the cursor past those calls, so no use read before a restart is lost.
   */
  private async load(id: string): Promise<AgentState> {
    const st = await this.o.files.load(id);
    const last = this.o.usage.lastUsed(id);
    for (const [tool, t] of Object.entries(st.tools)) {
      const ts = last[tool];
      if (ts !== undefined && (t.lastUsedAt === null || ts > t.lastUsedAt)) t.lastUsedAt = ts;
    }
    return st;
  }

  agent(id: string): AgentConfig {
    const a = this.o.config.agents.find((x) => x.id === id);
    if (!a) throw new MwsError('agent_not_found', `No agent "${id}". Known agents: ${this.o.config.agents.map((x) => x.id).join(', ')}.`);
    return a;
  }

  private state(agent: string): AgentState {
    this.agent(agent);
    return this.states.get(agent)!;
  }

  /** Pins that never decay: the config's (global and the agent's) and the seed working-set file. */
  private fixedPins(agent: string): Map<string, Exclude<PinSource, 'file'>> {
    const m = new Map<string, Exclude<PinSource, 'file'>>();
    for (const t of [...this.o.config.pins, ...this.agent(agent).pins]) m.set(t, 'config');
    for (const t of this.o.seed.current()) if (!m.has(t)) m.set(t, 'seed');
    return m;
  }

  /** The names an agent lists (before meeting the toolbox): pins first, then by promotion time. */
  names(agent: string): string[] {
    const st = this.state(agent);
    const pins = this.fixedPins(agent);
    const fixed = [...pins.keys()];
    const rest = Object.entries(st.tools)
      .filter(([t]) => !pins.has(t))
      .sort((a, b) => Number(Boolean(b[1].pinned)) - Number(Boolean(a[1].pinned)) || a[1].promotedAt - b[1].promotedAt || a[0].localeCompare(b[0]))
      .map(([t]) => t);
    return [...fixed, ...rest];
  }

  members(agent: string): MemberView[] {
    return Object.entries(this.state(agent).tools).map(([tool, t]) => ({ tool, ...t }));
  }

  approvals(agent: string): AgentState['approvals'] {
    return this.state(agent).approvals;
  }

  async grant(agent: string, tool: string, hash: string): Promise<void> {
    const st = this.state(agent);
    st.approvals[tool] = { hash, at: this.o.clock.now() };
    await this.o.files.save(agent, st);
  }

  async withdraw(agent: string, tool: string): Promise<void> {
    const st = this.state(agent);
    delete st.approvals[tool];
    await this.o.files.save(agent, st);
  }

  history(agent: string): Promise<HistoryEntry[]> {
    this.agent(agent);
    return this.o.files.readHistory(agent);
  }

  /** The count an agent's list holds now: what promote and demote answer. */
  listedCount(agent: string): number {
    const tb = this.o.toolbox();
    return this.names(agent).filter((n) => tb.get(n)).length;
  }

  /** The agent or the user brings a tool in. Answers whether anything changed. */
  async promote(agent: string, tool: string, vendor: string, cause: 'agent' | 'user'): Promise<boolean> {
    const st = this.state(agent);
    if (st.tools[tool] || this.fixedPins(agent).has(tool)) return false;
    await this.apply([{ agent, tool, action: 'promote', cause, vendor }]);
    return true;
  }

  /** The agent or the user takes a tool out. Pins stay: they are the user's standing choice. */
  async demote(agent: string, tool: string, cause: 'agent' | 'user'): Promise<boolean> {
    const st = this.state(agent);
    const pin = this.fixedPins(agent).get(tool) ?? st.tools[tool]?.pinned;
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
    const t = this.states.get(agent)?.tools[tool];
    if (t && (t.lastUsedAt === null || ts > t.lastUsedAt)) t.lastUsedAt = ts;
  }

  /** What the sweep would decide at `now`, without changing anything. */
  previewSweep(now: number, agents?: string[]): Decision[] {
    const revoked = this.o.revoked?.() ?? new Set<string>();
    const vendors = new Set(Object.keys(this.o.config.upstreams).filter((v) => !revoked.has(v)));
    return (agents ?? this.o.config.agents.map((a) => a.id)).flatMap((id) => {
      const a = this.agent(id);
      return decideSweep(id, this.state(id), { cap: a.cap, idleWindowDays: a.idleWindowDays, vendors }, now, { busy: this.o.busy(id) });
    });
  }

  /**
   * What the sweep would demote at `now`: the very cycle the schedule runs (usage read, pins reconciled,
   * usage promotions, then the sweep, skipped while demotion is paused), on a copy, keeping only its
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
    const touched: string[] = [];
    for (const a of this.o.config.agents) {
      const st = this.states.get(a.id);
      if (!st) continue;
      let changes = reconcilePins(a.id, st, { fixed: this.fixedPins(a.id), files: this.activeFilePins(), pinDecayDays: this.o.config.promote.pinDecayDays }, known, now);
      // Pin files are read by the cycle; until it has read them once, their pins are left as they are.
      if (!this.filePinsRead) changes = changes.filter((c) => st.tools[c.tool]?.pinned !== 'file');
      if (changes.some((c) => c.action === 'unpin' || c.action === 'repin')) touched.push(a.id);
      out.push(...(await this.applyPinChanges(changes, now, true)));
    }
    if (touched.length) this.o.events.changed(touched);
    return out;
  }

  /** Usage scores per agent at `now`. */
  previewUsage(now: number, agents?: string[]): Record<string, UsageCandidate[]> {
    const known = this.known();
    const out: Record<string, UsageCandidate[]> = {};
    for (const id of agents ?? this.o.config.agents.map((a) => a.id)) {
      out[id] = scoreUsage(this.o.usage.usage(id), this.state(id), this.o.config.promote, this.agent(id).idleWindowDays, known, now);
    }
    return out;
  }

  /**
   * One pass of the rules: read new usage, reconcile pins, promote by usage, then sweep (idle, cap,
   * revoked). With `dryRun`, decides on a copy and changes nothing.
   */
  cycle(now: number, opts: { dryRun?: boolean; agents?: string[] } = {}): Promise<CycleReport> {
    const run = this.cycles.then(() => this.cycleNow(now, opts));
    this.cycles = run.catch(() => undefined);
    return run;
  }

  private async cycleNow(now: number, opts: { dryRun?: boolean; agents?: string[] }): Promise<CycleReport> {
    await this.ingest(now);
    const ids = opts.agents ?? this.o.config.agents.map((a) => a.id);
    const saved = opts.dryRun ? new Map([...this.states].map(([k, v]) => [k, structuredClone(v)])) : undefined;
    const known = this.known();
    const decisions: Decision[] = [];
    const usage: Record<string, UsageCandidate[]> = {};
    try {
      for (const id of ids) {
        const pinChanges = reconcilePins(id, this.state(id), { fixed: this.fixedPins(id), files: this.activeFilePins(), pinDecayDays: this.o.config.promote.pinDecayDays }, known, now);
        decisions.push(...(await this.applyPinChanges(pinChanges, now, !opts.dryRun)));
        usage[id] = scoreUsage(this.o.usage.usage(id), this.state(id), this.o.config.promote, this.agent(id).idleWindowDays, known, now);
        const promotions = decideUsagePromotions(id, usage[id]!, known);
        await this.apply(promotions, now, !opts.dryRun);
        decisions.push(...promotions);
        if (!this.demotionPaused) {
          const demotions = this.previewSweep(now, [id]);
          await this.apply(demotions, now, !opts.dryRun);
          decisions.push(...demotions);
        }
      }
    } finally {
      if (saved) for (const [k, v] of saved) this.states.set(k, v);
    }
    if (!opts.dryRun) {
      await this.o.usage.prune(now, Math.max(this.o.config.promote.windowDays, this.o.config.promote.keepDays, ...this.o.config.agents.map((a) => a.idleWindowDays)));
      await this.o.usage.save();
    }
    return { decisions, usage };
  }

  /**
   * Reads the calls, transcripts and pin files gained since the last read, and persists what it read
   * with the cursors. Single-flight: a caller arriving while a read is in flight shares it.
   */
  ingest(now: number): Promise<void> {
    this.ingesting ??= this.ingestNow(now).finally(() => (this.ingesting = undefined));
    return this.ingesting;
  }

  private async ingestNow(now: number): Promise<void> {
    const used = [
      ...(await this.o.usage.ingestCallLog()),
      ...(await this.o.usage.ingestTranscripts(this.o.config.transcripts, this.o.config.serverName)),
    ];
    for (const u of used) this.markUsed(u.agent, u.tool, u.ts);
    // The cursors move on disk only with what they read (lastUsed included), in one atomic write.
    await this.o.usage.save();
    this.filePins = await readPinFiles(this.o.config.pinFiles);
    this.filePinsRead = true;
    let changed = false;
    // First seen now, even when a dry run asks about a future time.
    const seenAt = Math.min(now, this.o.clock.now());
    for (const p of this.filePins) if (this.pinFilesSeen[p] === undefined) (this.pinFilesSeen[p] = seenAt), (changed = true);
    if (changed) await writeJsonAtomic(join(this.o.config.stateDir, PIN_FILES_SEEN), this.pinFilesSeen);
  }

  private activeFilePins(): Map<string, number> {
    return new Map(this.filePins.map((p) => [p, this.pinFilesSeen[p] ?? this.o.clock.now()]));
  }

  private known(): Map<string, string> {
    return new Map([...this.o.toolbox().all()].map((e) => [e.name, e.vendor]));
  }

  private async applyPinChanges(changes: PinChange[], now: number, write: boolean): Promise<Decision[]> {
    const decisions: Decision[] = [];
    for (const c of changes) {
      if (c.action === 'unpin' || c.action === 'repin') {
        const t = this.state(c.agent).tools[c.tool];
        if (!t) continue;
        if (c.action === 'unpin') delete t.pinned;
        else t.pinned = c.pinned;
        if (write) await this.o.files.save(c.agent, this.state(c.agent));
      } else decisions.push(c);
    }
    await this.apply(decisions, now, write);
    return decisions;
  }

  /** Applies decisions to the states; with `write`, also saves, records history and tells listeners. */
  private async apply(decisions: Decision[], now = this.o.clock.now(), write = true): Promise<void> {
    if (decisions.length === 0) return;
    const touched = new Set<string>();
    const demoted = new Map<string, string[]>();
    for (const d of decisions) {
      const st = this.state(d.agent);
      if (d.action === 'promote') {
        if (st.tools[d.tool]) continue;
        st.tools[d.tool] = {
          vendor: d.vendor ?? this.o.toolbox().get(d.tool)?.vendor ?? '',
          promotedBy: d.cause as ToolState['promotedBy'],
          promotedAt: now,
          lastUsedAt: this.o.usage.lastUsed(d.agent)[d.tool] ?? null,
          ...(d.pinned ? { pinned: d.pinned } : {}),
        };
      } else {
        if (!st.tools[d.tool]) continue;
        delete st.tools[d.tool];
        st.demotedAt[d.tool] = now;
        if (d.cause !== 'agent' && d.cause !== 'user') {
          const k = `${d.agent}\u0000${d.cause}`;
          demoted.set(k, [...(demoted.get(k) ?? []), d.tool]);
        }
      }
      touched.add(d.agent);
      if (write) this.o.files.appendHistory(d.agent, { ts: new Date(now).toISOString(), tool: d.tool, action: d.action, cause: d.cause }, d.vendor);
    }
    if (!write) return;
    for (const a of touched) await this.o.files.save(a, this.state(a));
    this.o.events.changed([...touched]);
    for (const [k, tools] of demoted) {
      const [agent, cause] = k.split('\u0000') as [string, DemoteCause];
      this.o.events.demoted(agent, tools, cause);
    }
  }
}
