// The agents' working-set states in memory, loaded from their state files and saved back: the one
// place that knows which agents exist. The rules, the cycle and the approval grants read and write
// through it.
import type { AgentConfig, Config } from '../config/schema.js';
import { MwsError } from '../errors.js';
import type { UsageStore } from '../usage/usageStore.js';
import type { AgentStateFiles } from './stateFiles.js';
import type { AgentState, HistoryEntry, ToolState } from './types.js';

export type MemberView = ToolState & { tool: string };

export class AgentStates {
  private readonly states = new Map<string, AgentState>();

  constructor(private readonly o: { config: Config; files: AgentStateFiles; usage: UsageStore }) {}

  async start(): Promise<void> {
    for (const a of this.o.config.agents) this.states.set(a.id, await this.load(a.id));
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

  members(agent: string): MemberView[] {
    return Object.entries(this.state(agent).tools).map(([tool, t]) => ({ tool, ...t }));
  }

  history(agent: string): Promise<HistoryEntry[]> {
    this.agent(agent);
    return this.o.files.readHistory(agent);
  }

  /** A successful call: the idle clock restarts now, without waiting for the next cycle. */
  markUsed(agent: string, tool: string, ts: number): void {
    const t = this.states.get(agent)?.tools[tool];
    if (t && (t.lastUsedAt === null || ts > t.lastUsedAt)) t.lastUsedAt = ts;
  }
}
