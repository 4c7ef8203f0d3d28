// Per-agent working-set files: stateDir/agents/<id>.json (the set, demotion marks, approvals) and
// <id>.history.jsonl (every promotion and demotion). A damaged set file is moved aside and the set is
// rebuilt from the history, which is append-only and so survives whatever broke the snapshot.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { JsonlAppender } from '../store/jsonl.js';
import { agentStateSchema, fits } from '../store/shapes.js';
import {
  agentStateFrom,
  emptyAgentState,
  type AgentState,
  type HistoryEntry,
  type PromoteCause,
  type StoredHistoryEntry,
} from './types.js';

// Checked against its whole shape: a null tool or null approvals would otherwise break promotion and calls later.
const isAgentState = fits(agentStateSchema) as (v: unknown) => v is AgentState;

/**
 * Where the agents' states and histories live: these files, or a database (statestore/). A save that
 * fails rejects (the change is rolled back by its caller); a history line is written in order behind it.
 */
export interface AgentStateStore {
  load(agent: string): Promise<AgentState>;
  save(agent: string, state: AgentState): Promise<void>;
  /** Lines for one agent's history, in order (one write where the store allows it). */
  appendHistory(agent: string, entries: readonly StoredHistoryEntry[]): void;
  readHistory(agent: string): Promise<HistoryEntry[]>;
  close(): Promise<void>;
}

export class AgentStateFiles implements AgentStateStore {
  private readonly dir: string;
  private readonly history = new Map<string, JsonlAppender>();

  constructor(
    stateDir: string,
    private readonly log: Logger,
  ) {
    this.dir = join(stateDir, 'agents');
  }

  private statePath(agent: string): string {
    return join(this.dir, `${agent}.json`);
  }

  private historyPath(agent: string): string {
    return join(this.dir, `${agent}.history.jsonl`);
  }

  async load(agent: string): Promise<AgentState> {
    const r = await readJsonSafe(this.statePath(agent), this.log, isAgentState);
    if (r.kind === 'ok') return this.reconcile(agent, agentStateFrom(r.value));
    if (r.kind === 'missing') return emptyAgentState();
    const rebuilt = await this.rebuild(agent);
    this.log.warn(`agent "${agent}": working set rebuilt from its history (${Object.keys(rebuilt.tools).length} tools).`);
    await this.save(agent, rebuilt);
    return rebuilt;
  }

  save(agent: string, state: AgentState): Promise<void> {
    return writeJsonAtomic(this.statePath(agent), state);
  }

  appendHistory(agent: string, entries: readonly StoredHistoryEntry[]): void {
    let out = this.history.get(agent);
    if (!out) this.history.set(agent, (out = new JsonlAppender(this.historyPath(agent))));
    out.appendAll(entries);
  }

  async readHistory(agent: string): Promise<HistoryEntry[]> {
    let text: string;
    try {
      text = await readFile(this.historyPath(agent), 'utf8');
    } catch {
      return [];
    }
    const out: HistoryEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as StoredHistoryEntry;
        out.push({ ts: e.ts, tool: e.tool, action: e.action, cause: e.cause, ...(typeof e.by === 'string' ? { by: e.by } : {}) });
      } catch {
        // a torn last line is skipped
      }
    }
    return out;
  }

  /**
   * A crash between recording a change in the history and saving the set leaves the set behind the
   * history: at load, a tool whose last recorded change is newer than what the set says about it is
   * brought in line (promoted back, or taken out), and the set saved again.
   */
  private async reconcile(agent: string, state: AgentState): Promise<AgentState> {
    const last = new Map<string, StoredHistoryEntry>();
    for (const e of await this.readStoredHistory(agent)) last.set(e.tool, e);
    let changed = 0;
    for (const [tool, e] of last) {
      const ts = Date.parse(e.ts);
      if (Number.isNaN(ts)) continue;
      const t = state.tools[tool];
      if (e.action === 'promote' && !t && (state.demotedAt[tool] ?? -Infinity) < ts) {
        state.tools[tool] = { vendor: e.vendor ?? '', promotedBy: e.cause as PromoteCause, promotedAt: ts, lastUsedAt: null };
        changed++;
      } else if (e.action === 'demote' && t && t.promotedAt < ts) {
        delete state.tools[tool];
        state.demotedAt[tool] = ts;
        changed++;
      }
    }
    if (changed) {
      this.log.warn(
        `agent "${agent}": ${changed} change${changed === 1 ? '' : 's'} recorded in the history but not in ${this.statePath(agent)} (a crash mid-save?) applied again.`,
      );
      await this.save(agent, state);
    }
    return state;
  }

  private async readStoredHistory(agent: string): Promise<StoredHistoryEntry[]> {
    let text: string;
    try {
      text = await readFile(this.historyPath(agent), 'utf8');
    } catch {
      return [];
    }
    const out: StoredHistoryEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as StoredHistoryEntry;
        if (typeof e.tool === 'string' && (e.action === 'promote' || e.action === 'demote') && typeof e.ts === 'string') out.push(e);
      } catch {
        // a torn line is skipped
      }
    }
    return out;
  }

  /** Replays the history: the set as it stood after the last recorded change. */
  private async rebuild(agent: string): Promise<AgentState> {
    const state = emptyAgentState();
    let text: string;
    try {
      text = await readFile(this.historyPath(agent), 'utf8');
    } catch {
      return state;
    }
    for (const line of text.split('\n')) {
      let e: StoredHistoryEntry;
      try {
        e = JSON.parse(line) as StoredHistoryEntry;
      } catch {
        continue;
      }
      const ts = Date.parse(e.ts);
      if (e.action === 'promote') {
        state.tools[e.tool] = { vendor: e.vendor ?? '', promotedBy: e.cause as PromoteCause, promotedAt: ts, lastUsedAt: null };
      } else {
        delete state.tools[e.tool];
        state.demotedAt[e.tool] = ts;
      }
    }
    return state;
  }

  async close(): Promise<void> {
    await Promise.all([...this.history.values()].map((h) => h.close()));
  }
}
