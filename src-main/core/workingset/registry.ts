// The agents' working-set states in memory, loaded from their state files and saved back: the one
// place that knows which agents exist. The rules, the cycle and the approval grants read and write
// through it.
import type { AgentConfig, Config } from '../config/schema.js';
import { MwsError } from '../errors.js';
import { saveFailed } from '../store/writeFailure.js';
import type { UsageStore } from '../usage/usageStore.js';
import type { AgentStateStore } from './stateFiles.js';
import { cloneAgentState, type AgentState, type HistoryEntry, type ToolState } from './types.js';

export type MemberView = ToolState & { tool: string };

/** Times a change is made again on a fresh read when another replica saved the same agent meanwhile. */
const CHANGE_ATTEMPTS = 3;

export class AgentStates {
  private readonly states = new Map<string, AgentState>();
  /** Per agent, a count moved on by every change to its tools (what is computed from them is kept until then). */
  private readonly revisions = new Map<string, number>();
  /** The same, moved on also by a use (markUsed): what shows each member's last use is kept until then. */
  private readonly memberRevisions = new Map<string, number>();

  constructor(private readonly o: { config: Config; files: AgentStateStore; usage: UsageStore }) {}

  async start(): Promise<void> {
    for (const a of this.o.config.agents) this.set(a.id, await this.load(a.id));
  }

  /** The agent's revision: it differs from any answered before whenever the agent's tools may have changed. */
  revision(agent: string): number {
    return this.revisions.get(agent) ?? 0;
  }

  /** Differs from any answered before whenever anything of the agent's members may have changed, last uses included. */
  memberRevision(agent: string): number {
    return this.memberRevisions.get(agent) ?? 0;
  }

  private set(id: string, st: AgentState): void {
    this.states.set(id, st);
    this.touched(id);
  }

  private touched(id: string): void {
    this.revisions.set(id, this.revision(id) + 1);
    this.memberRevisions.set(id, this.memberRevision(id) + 1);
  }

  /** Loads the state of an agent added while running. */
  async ensureAgent(id: string): Promise<void> {
    if (!this.states.has(id)) this.set(id, await this.load(id));
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

  /**
   * Reads an agent's state again from its store (another replica changed it), in place: the listing
   * and the grants hold the object. Answers whether the tools it lists changed.
   */
  async reload(id: string): Promise<boolean> {
    const st = this.states.get(id);
    if (!st) return false;
    const fresh = await this.load(id);
    const before = JSON.stringify(Object.keys(st.tools).sort());
    restore(st, fresh);
    this.touched(id);
    return JSON.stringify(Object.keys(st.tools).sort()) !== before;
  }

  agent(id: string): AgentConfig {
    const a = this.o.config.agents.find((x) => x.id === id);
    if (!a) throw new MwsError('agent_not_found', `No agent "${id}". Known agents: ${this.o.config.agents.map((x) => x.id).join(', ')}.`);
    return a;
  }

  /** The agents named, or every configured agent. */
  ids(agents?: string[]): string[] {
    return agents ?? this.o.config.agents.map((a) => a.id);
  }

  state(agent: string): AgentState {
    this.agent(agent);
    return this.states.get(agent)!;
  }

  /** The state of a loaded agent, or undefined (an agent removed, or not loaded yet). */
  loaded(agent: string): AgentState | undefined {
    return this.states.get(agent);
  }

  save(agent: string): Promise<void> {
    return this.o.files.save(agent, this.state(agent));
  }

  /**
   * Runs `change` on an agent's state and saves it; when the save fails, the state is put back as it
   * was (in place: others hold the object) and the failure thrown as `disk_full` or
   * `state_unwritable`. A change the file does not hold is not applied: it would be listed until a
   * restart and gone after. A change answering `false` or `[]` changed nothing: no save.
   */
  async change<T>(agent: string, what: string, change: (st: AgentState) => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const st = this.state(agent);
      const before = cloneAgentState(st);
      const out = change(st);
      if (out === false || (Array.isArray(out) && out.length === 0)) return out;
      this.touched(agent);
      try {
        await this.save(agent);
        return out;
      } catch (err) {
        restore(st, before);
        this.touched(agent);
        // A shared store refuses a save made from an older read (another replica saved meanwhile):
        // read the agent again and make the change on what is there now.
        if (err instanceof MwsError && err.code === 'conflict' && attempt < CHANGE_ATTEMPTS) {
          await this.reload(agent);
          continue;
        }
        throw saveFailed(err, what, this.o.config.stateDir);
      }
    }
  }

  members(agent: string): MemberView[] {
    return Object.entries(this.state(agent).tools).map(([tool, t]) => ({ tool, ...t }));
  }

  /** How many tools the agent's set holds, without a view of each (the metrics read it for 100 agents at every scrape). */
  memberCount(agent: string): number {
    return Object.keys(this.state(agent).tools).length;
  }

  history(agent: string): Promise<HistoryEntry[]> {
    this.agent(agent);
    return this.o.files.readHistory(agent);
  }

  /** A successful call: the idle clock restarts now, without waiting for the next cycle. */
  markUsed(agent: string, tool: string, ts: number): void {
    const t = this.states.get(agent)?.tools[tool];
    if (t && (t.lastUsedAt === null || ts > t.lastUsedAt)) {
      t.lastUsedAt = ts;
      this.memberRevisions.set(agent, this.memberRevision(agent) + 1);
    }
  }
}

/** Puts `before`'s fields back into `st`, keeping the object. */
function restore(st: AgentState, before: AgentState): void {
  for (const k of Object.keys(st)) delete (st as Record<string, unknown>)[k];
  Object.assign(st, before);
}
