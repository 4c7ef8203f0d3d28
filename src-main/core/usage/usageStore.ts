// What the rules know about usage: per agent and tool, successful calls grouped by session, plus call
// and search tallies for reports. Fed incrementally from calls.jsonl and client transcripts, persisted
// in stateDir/usage.json with the read cursors, pruned past the longest window that reads it.
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { readNewLines, type Cursor } from './tail.js';
import { parseTranscriptLine, transcriptFiles } from './transcripts.js';
import { CALL_LOG_FILE } from './callLog.js';
import type { AgentUsage } from '../workingset/usagePromotion.js';
import { DAY_MS } from '../workingset/types.js';
import { fits, usageFileSchema } from '../store/shapes.js';

export const USAGE_FILE = 'usage.json';
/**
 * Stateless (2026-07-28) clients have no MCP session: calls by one agent and client with less than
 * this between them are one session. Half an hour separates one task from the next for most people.
 */
export const SESSION_GAP_MS = 30 * 60 * 1000;

export type Tally = { ok: number; failed: number };

type UsageFileShape = {
  version: 1;
  cursors: Record<string, Cursor>;
  /** transcript tool_use ids seen without their result yet */
  pending: Record<string, { agent: string; tool: string; ts: number; session: string }>;
  /** per agent+client: the running gap-rule session */
  gapSessions: Record<string, { key: string; last: number }>;
  agents: Record<string, AgentUsage>;
  tallies: Record<string, Record<string, Tally>>;
  searches: Record<string, number>;
  /** per agent and tool: last successful call, ms */
  lastUsed: Record<string, Record<string, number>>;
  /** per agent and UTC day: calls and searches, for the report's chart */
  daily: Record<string, Record<string, { calls: number; searches: number }>>;
};

/** Days of per-day counts kept for the chart. */
export const DAILY_DAYS = 90;

const empty = (): UsageFileShape => ({ version: 1, cursors: {}, pending: {}, gapSessions: {}, agents: {}, tallies: {}, searches: {}, lastUsed: {}, daily: {} });
const isUsageFile = fits(usageFileSchema) as (v: unknown) => v is UsageFileShape;


export class UsageStore {
  private data = empty();
  private readonly path: string;

  constructor(private readonly stateDir: string, private readonly log: Logger) {
    this.path = join(stateDir, USAGE_FILE);
  }

  async load(): Promise<void> {
    const r = await readJsonSafe(this.path, this.log, isUsageFile);
    // A damaged usage file is rebuilt from the logs it came from: the cursors start over.
    this.data = r.kind === 'ok' ? { ...empty(), ...r.value } : empty();
  }

  save(): Promise<void> {
    return writeJsonAtomic(this.path, this.data);
  }

  usage(agent: string): AgentUsage {
    return this.data.agents[agent] ?? {};
  }

  tallies(agent: string): Record<string, Tally> {
    return this.data.tallies[agent] ?? {};
  }

  searches(agent: string): number {
    return this.data.searches[agent] ?? 0;
  }

  lastUsed(agent: string): Record<string, number> {
    return this.data.lastUsed[agent] ?? {};
  }

  /** The last `days` UTC days up to `now`, oldest first, days without activity included as zeros. */
  daily(agent: string, now: number, days = 30): Array<{ day: string; calls: number; searches: number }> {
    const counts = this.data.daily[agent] ?? {};
    return Array.from({ length: days }, (_, i) => {
      const day = new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
      return { day, calls: counts[day]?.calls ?? 0, searches: counts[day]?.searches ?? 0 };
    });
  }

  private countDay(agent: string, ts: number, kind: 'calls' | 'searches'): void {
    const day = new Date(ts).toISOString().slice(0, 10);
    ((this.data.daily[agent] ??= {})[day] ??= { calls: 0, searches: 0 })[kind]++;
  }

  /** Reads what calls.jsonl gained; answers the (agent, tool, ts) of new successful calls. */
  async ingestCallLog(): Promise<Array<{ agent: string; tool: string; ts: number }>> {
    const path = join(this.stateDir, CALL_LOG_FILE);
    const read = await readNewLines(path, this.data.cursors[path]);
    if (!read) return [];
    this.data.cursors[path] = read.cursor;
    const used: Array<{ agent: string; tool: string; ts: number }> = [];
    for (const line of read.lines) {
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const agent = typeof r.agent === 'string' ? r.agent : 'default';
      const ts = typeof r.ts === 'string' ? Date.parse(r.ts) : NaN;
      if (Number.isNaN(ts)) continue;
      if (r.event === 'search') {
        this.data.searches[agent] = (this.data.searches[agent] ?? 0) + 1;
        this.countDay(agent, ts, 'searches');
        continue;
      }
      if (typeof r.tool !== 'string') continue;
      this.countDay(agent, ts, 'calls');
      const tally = ((this.data.tallies[agent] ??= {})[r.tool] ??= { ok: 0, failed: 0 });
      if (r.ok !== true) {
        tally.failed++;
        continue; // errors and isError results never count as use
      }
      tally.ok++;
      const session = typeof r.session === 'string' && r.session ? `mcp:${r.session}` : this.gapSession(agent, typeof r.client === 'string' ? r.client : 'unknown', ts);
      this.use(agent, r.tool, session, ts);
      used.push({ agent, tool: r.tool, ts });
    }
    return used;
  }

  /** Reads what the Claude Code transcripts gained; answers the new successful calls. */
  async ingestTranscripts(sources: ReadonlyArray<{ root: string; agent: string }>, serverName: string): Promise<Array<{ agent: string; tool: string; ts: number }>> {
    const used: Array<{ agent: string; tool: string; ts: number }> = [];
    for (const src of sources) {
      for (const file of await transcriptFiles(src.root)) {
        const read = await readNewLines(file, this.data.cursors[file]);
        if (!read) continue;
        this.data.cursors[file] = read.cursor;
        for (const line of read.lines) {
          const { calls, results } = parseTranscriptLine(line, serverName);
          for (const c of calls) this.data.pending[c.id] = { agent: src.agent, tool: c.tool, ts: c.ts, session: `cc:${c.session}` };
          for (const r of results) {
            const p = this.data.pending[r.id];
            if (!p) continue;
            delete this.data.pending[r.id];
            if (!r.ok) continue;
            this.use(p.agent, p.tool, p.session, p.ts);
            used.push({ agent: p.agent, tool: p.tool, ts: p.ts });
          }
        }
      }
    }
    return used;
  }

  /** Forgets sessions and pending calls older than `retentionDays`. */
  prune(now: number, retentionDays: number): void {
    const cutoff = now - retentionDays * DAY_MS;
    for (const tools of Object.values(this.data.agents)) {
      for (const [tool, sessions] of Object.entries(tools)) {
        for (const [key, u] of Object.entries(sessions)) if (u.last < cutoff) delete sessions[key];
        if (Object.keys(sessions).length === 0) delete tools[tool];
      }
    }
    for (const [id, p] of Object.entries(this.data.pending)) if (p.ts < cutoff) delete this.data.pending[id];
    for (const [k, g] of Object.entries(this.data.gapSessions)) if (g.last < cutoff) delete this.data.gapSessions[k];
    const firstDay = new Date(now - DAILY_DAYS * DAY_MS).toISOString().slice(0, 10);
    for (const days of Object.values(this.data.daily)) for (const d of Object.keys(days)) if (d < firstDay) delete days[d];
  }

  private use(agent: string, tool: string, session: string, ts: number): void {
    const sessions = ((this.data.agents[agent] ??= {})[tool] ??= {});
    const u = sessions[session];
    if (u) {
      u.first = Math.min(u.first, ts);
      u.last = Math.max(u.last, ts);
      u.calls++;
    } else sessions[session] = { first: ts, last: ts, calls: 1 };
    const last = (this.data.lastUsed[agent] ??= {});
    last[tool] = Math.max(last[tool] ?? 0, ts);
  }

  private gapSession(agent: string, client: string, ts: number): string {
    const k = `${agent}\u0000${client}`;
    const g = this.data.gapSessions[k];
    if (g && ts - g.last < SESSION_GAP_MS && ts >= g.last - SESSION_GAP_MS) {
      g.last = Math.max(g.last, ts);
      return g.key;
    }
    const key = `gap:${client}:${ts}`;
    this.data.gapSessions[k] = { key, last: ts };
    return key;
  }
}
