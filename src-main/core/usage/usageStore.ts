// What the rules know about usage: per agent and tool, successful calls grouped by work session (the
// agent's runs of calls, usage/sessions.ts), plus call
// and search tallies for reports. Fed incrementally from calls.jsonl and client transcripts, persisted
// in stateDir/usage.json with the read cursors, pruned past the longest window that reads it.
// The cursors and everything read before them (lastUsed included) are one atomic file, so a restart
// never finds a cursor past calls whose effects it lost. A backlog is read to its end in one pass,
// yielding to the event loop every few milliseconds so calls in flight are not held up.
import { join } from 'node:path';
import { deepDict, dict } from '../../shared/reservedNames.js';
import type { Logger } from '../log.js';
import { readJsonSafe, writePiecesAtomic } from '../store/atomicJson.js';
import { readAllNewLines, type Cursor } from './tail.js';
import { parseTranscriptLine, transcriptFiles } from './transcripts.js';
import { CALL_LOG_FILE } from './callLog.js';
import { CALL_LOG_ROTATED_FILE } from './activity.js';
import { stat } from 'node:fs/promises';
import type { AgentUsage, ToolUsage } from './types.js';
import { addToRuns, type Run } from './sessions.js';
import { DAY_MS } from '../clock.js';
import { fits, usageFileSchema } from '../store/shapes.js';
import { TimeSlicer } from '../timeSlice.js';

export const USAGE_FILE = 'usage.json';
export { SESSION_GAP_MS } from './sessions.js';

export type Tally = { ok: number; failed: number };

type UsageFileShape = {
  version: 1;
  cursors: Record<string, Cursor>;
  /** transcript tool_use ids seen without their result yet */
  pending: Record<string, { agent: string; tool: string; ts: number; session: string }>;
  /** per agent: its work sessions, sorted (every call and search read counts as activity) */
  runs: Record<string, Run[]>;
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
/**
 * Sessions kept one by one per agent and tool; older ones are rolled up into one entry per day
 * (`day:YYYY-MM-DD`, with a session count), so a tool used in a million sessions costs a few entries.
 */
export const MAX_SESSIONS_PER_TOOL = 16;
/** usage.json is written in pieces of about this many characters (each encoded and written alone). */
const PIECE_CHARS = 64 * 1024;
/** Parsing work between two yields to the event loop: calls wait at most about this long for it. */
export const INGEST_SLICE_MS = 5;
const ROLLUP_PREFIX = 'day:';

type Used = Array<{ agent: string; tool: string; ts: number }>;

/** A shared call log (statestore/): records after an id, oldest first, at most `limit`. */
export type SharedCalls = { since(afterId: number, limit: number): Promise<Array<{ id: number; record: Record<string, unknown> }>> };
/** The cursor of the shared log in usage.json: the last record id read (as `offset`). */
export const SHARED_CURSOR = 'shared:calls';
/** Records one read of the shared log answers. */
const SHARED_PAGE = 5000;

/**
 * The successful calls one read found, kept as the latest call per agent and tool: what the idle clock
 * needs (it keeps the latest), and a backlog of a million calls holds a few thousand entries instead
 * of a million objects that live until the read ends (which made every young-generation GC copy them).
 */
class UsedCalls {
  private readonly byAgent = new Map<string, Map<string, number>>();

  add(agent: string, tool: string, ts: number): void {
    let tools = this.byAgent.get(agent);
    if (!tools) this.byAgent.set(agent, (tools = new Map()));
    const had = tools.get(tool);
    if (had === undefined || ts > had) tools.set(tool, ts);
  }

  list(): Used {
    const out: Used = [];
    for (const [agent, tools] of this.byAgent) for (const [tool, ts] of tools) out.push({ agent, tool, ts });
    return out;
  }
}

// Keyed by agent, tool, client and day names from outside: null-prototype maps all the way down.
const empty = (): UsageFileShape => ({
  version: 1,
  cursors: dict(),
  pending: dict(),
  runs: dict(),
  agents: dict(),
  tallies: dict(),
  searches: dict(),
  lastUsed: dict(),
  daily: dict(),
});
const isUsageFile = fits(usageFileSchema) as (v: unknown) => v is UsageFileShape;

export class UsageStore {
  private data = empty();
  private readonly path: string;
  /** Something changed since the last save: unchanged usage is never rewritten. */
  private dirty = false;
  /**
   * One time budget for all the store's long steps: a cycle runs ingestion, save and prune back to
   * back, and a fresh budget per step let their slices add up between two yields.
   */
  private readonly slice = new Slicer();
  /**
   * Per agent, a count moved on by every change to what a report reads of its usage (tallies, searches,
   * days, last uses); all of them move on when the whole is read again (load). What is built from an
   * agent's usage can be kept while its revision stays (the report, reportControl.ts).
   */
  private readonly revisions = new Map<string, number>();
  private lastRevision = 0;
  private loadRevision = 0;

  /** Sees each transcript line read, with its agent: search→call pairs for learning (search/transcriptPairs.ts). */
  onTranscriptLine: ((line: string, agent: string) => void) | undefined;

  constructor(
    private readonly stateDir: string,
    private readonly log: Logger,
    /**
     * The fleet's call log in a shared store: read instead of calls.jsonl (which then holds only this
     * replica's calls), so usage counts every replica's calls once.
     */
    private readonly shared?: SharedCalls,
  ) {
    this.path = join(stateDir, USAGE_FILE);
  }

  async load(): Promise<void> {
    const r = await readJsonSafe(this.path, this.log, isUsageFile);
    // A damaged usage file is rebuilt from the logs it came from: the cursors start over.
    this.data = r.kind === 'ok' ? { ...empty(), ...deepDict(r.value) } : empty();
    // Client-process sessions of files written before work sessions: no longer read, so not kept.
    delete (this.data as Partial<{ gapSessions: unknown }>).gapSessions;
    this.dirty = false;
    this.revisions.clear();
    this.loadRevision = ++this.lastRevision;
  }

  /** Differs from any answered before whenever what a report reads of the agent's usage may have changed. */
  revision(agent: string): number {
    return this.revisions.get(agent) ?? this.loadRevision;
  }

  private touched(agent: string): void {
    this.revisions.set(agent, ++this.lastRevision);
  }

  /** Writes usage.json (compact, atomic) when something changed since it was last written. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      await writePiecesAtomic(this.path, (out) => this.serialize(out), 0o600);
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /**
   * Writes the file's JSON in pieces of about PIECE_CHARS, built agent by agent and tool by tool with
   * yields between slices: one JSON.stringify (or one string) of a large usage file would hold the event
   * loop for its whole length, when stringified and again when encoded for the write.
   */
  private async serialize(out: (piece: string) => Promise<void>): Promise<void> {
    const slice = this.slice;
    let parts: string[] = [];
    let size = 0;
    const emit = async (s: string) => {
      parts.push(s);
      size += s.length;
      if (size < PIECE_CHARS) return;
      const piece = parts.join('');
      parts = [];
      size = 0;
      await out(piece);
    };
    // Objects are opened down to per-tool entries (depth 3: field → agent → tool), then stringified whole.
    const write = async (value: unknown, depth: number): Promise<void> => {
      if (depth === 0 || typeof value !== 'object' || value === null || Array.isArray(value)) {
        await slice.maybeYield();
        await emit(`${JSON.stringify(value)}`);
        return;
      }
      let sep = '{';
      for (const [k, v] of Object.entries(value)) {
        await emit(`${sep}${JSON.stringify(k)}:`);
        sep = ',';
        await write(v, depth - 1);
      }
      await emit(sep === '{' ? '{}' : '}');
    };
    await write(this.data, 3);
    parts.push('\n');
    await out(parts.join(''));
  }

  usage(agent: string): AgentUsage {
    return this.data.agents[agent] ?? dict();
  }

  /** The agent's work sessions, oldest first. */
  runs(agent: string): readonly Run[] {
    return this.data.runs[agent] ?? [];
  }

  tallies(agent: string): Record<string, Tally> {
    return this.data.tallies[agent] ?? dict();
  }

  searches(agent: string): number {
    return this.data.searches[agent] ?? 0;
  }

  lastUsed(agent: string): Record<string, number> {
    return this.data.lastUsed[agent] ?? dict();
  }

  /** The last `days` UTC days up to `now`, oldest first, days without activity included as zeros. */
  daily(agent: string, now: number, days = 30): Array<{ day: string; calls: number; searches: number }> {
    const counts = this.data.daily[agent] ?? dict();
    return this.dayNames(now, days).map((day) => ({ day, calls: counts[day]?.calls ?? 0, searches: counts[day]?.searches ?? 0 }));
  }

  /** The last `days` UTC days to `now`'s, oldest first: the same for every agent of a report. */
  private lastDays = { day: NaN, days: 0, names: [] as string[] };

  private dayNames(now: number, days: number): string[] {
    const day = Math.floor(now / DAY_MS);
    const c = this.lastDays;
    if (c.day !== day || c.days !== days)
      this.lastDays = {
        day,
        days,
        names: Array.from({ length: days }, (_, i) => new Date((day - (days - 1 - i)) * DAY_MS).toISOString().slice(0, 10)),
      };
    return this.lastDays.names;
  }

  /** The UTC day of the last line read: a backlog's lines mostly share their day, and toISOString costs. */
  private dayCache = { from: 0, to: -1, day: '' };

  private countDay(agent: string, ts: number, kind: 'calls' | 'searches'): void {
    this.dirty = true;
    const c = this.dayCache;
    if (ts < c.from || ts > c.to) {
      c.from = Math.floor(ts / DAY_MS) * DAY_MS;
      c.to = c.from + DAY_MS - 1;
      c.day = new Date(c.from).toISOString().slice(0, 10);
    }
    const day = c.day;
    ((this.data.daily[agent] ??= dict())[day] ??= { calls: 0, searches: 0 })[kind]++;
  }

  /**
   * Reads everything calls.jsonl gained, to its end, in chunks that yield; answers, per agent and tool
   * with new successful calls, the latest one's ts. Callers must not overlap (WorkingSets.ingest is single-flight).
   */
  async ingestCallLog(): Promise<Used> {
    if (this.shared) return this.ingestShared(this.shared);
    const path = join(this.stateDir, CALL_LOG_FILE);
    const used = new UsedCalls();
    const slice = this.slice;
    const onChunk = async (lines: string[]) => {
      for (const line of lines) {
        await slice.maybeYield();
        this.callLine(line, used);
      }
    };
    let cursor = this.data.cursors[path];
    if (cursor) {
      // The log was rotated since the last read (activity.ts): the rest of the file it was moved to
      // comes first, then the new calls.jsonl from its start.
      const [now, moved] = await Promise.all([
        stat(path).catch(() => undefined),
        stat(join(this.stateDir, CALL_LOG_ROTATED_FILE)).catch(() => undefined),
      ]);
      if (moved && moved.ino === cursor.ino && now?.ino !== cursor.ino) {
        await readAllNewLines(join(this.stateDir, CALL_LOG_ROTATED_FILE), cursor, onChunk);
        cursor = undefined;
      }
    }
    const end = await readAllNewLines(path, cursor, onChunk);
    if (end) this.moveCursor(path, end);
    return used.list();
  }

  /** The shared log after the cursor (the last record id read), to its end, in pages. */
  private async ingestShared(shared: SharedCalls): Promise<Used> {
    const used = new UsedCalls();
    let after = this.data.cursors[SHARED_CURSOR]?.offset ?? 0;
    for (;;) {
      const page = await shared.since(after, SHARED_PAGE);
      for (const r of page) {
        await this.slice.maybeYield();
        this.callRecord(r.record, used);
        after = r.id;
      }
      if (page.length < SHARED_PAGE) break;
    }
    this.moveCursor(SHARED_CURSOR, { offset: after, ino: 0 });
    return used.list();
  }

  private moveCursor(path: string, c: Cursor): void {
    const old = this.data.cursors[path];
    if (old && old.offset === c.offset && old.ino === c.ino) return;
    this.data.cursors[path] = c;
    this.dirty = true;
  }

  private callLine(line: string, used: UsedCalls): void {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    this.callRecord(r, used);
  }

  private callRecord(r: Record<string, unknown>, used: UsedCalls): void {
    const agent = typeof r.agent === 'string' ? r.agent : 'default';
    const ts = typeof r.ts === 'string' ? Date.parse(r.ts) : NaN;
    if (Number.isNaN(ts)) return;
    // Every call and search is the agent at work, whatever its outcome or client.
    const run = this.activity(agent, ts);
    if (r.event === 'search') {
      this.data.searches[agent] = (this.data.searches[agent] ?? 0) + 1;
      this.countDay(agent, ts, 'searches');
      return;
    }
    // A refused call never ran: it is the agent at work (its run above), not use or failure of a tool.
    if (typeof r.tool !== 'string' || r.refused === true) return;
    this.countDay(agent, ts, 'calls');
    const tally = ((this.data.tallies[agent] ??= dict())[r.tool] ??= { ok: 0, failed: 0 });
    if (r.ok !== true) {
      tally.failed++;
      return; // errors and isError results never count as use
    }
    tally.ok++;
    this.use(agent, r.tool, workKey(run), ts);
    used.add(agent, r.tool, ts);
  }

  /** Reads what the Claude Code transcripts gained; answers, per agent and tool newly used, the latest call's ts. */
  async ingestTranscripts(sources: ReadonlyArray<{ root: string; agent: string }>, serverName: string): Promise<Used> {
    const used = new UsedCalls();
    const slice = this.slice;
    for (const src of sources) {
      for (const file of await transcriptFiles(src.root)) {
        const end = await readAllNewLines(file, this.data.cursors[file], async (lines) => {
          for (const line of lines) {
            await slice.maybeYield();
            this.onTranscriptLine?.(line, src.agent);
            const { calls, results } = parseTranscriptLine(line, serverName);
            for (const c of calls) this.data.pending[c.id] = { agent: src.agent, tool: c.tool, ts: c.ts, session: `cc:${c.session}` };
            for (const r of results) {
              const p = this.data.pending[r.id];
              if (!p) continue;
              delete this.data.pending[r.id];
              const run = this.activity(p.agent, p.ts);
              if (!r.ok) continue;
              this.use(p.agent, p.tool, workKey(run), p.ts);
              used.add(p.agent, p.tool, p.ts);
            }
          }
        });
        if (end) this.moveCursor(file, end);
      }
    }
    return used.list();
  }

  /** Forgets sessions and pending calls older than `retentionDays`. */
  async prune(now: number, retentionDays: number): Promise<void> {
    const slice = this.slice;
    const cutoff = now - retentionDays * DAY_MS;
    const drop = (o: Record<string, unknown>, k: string) => {
      delete o[k];
      this.dirty = true;
    };
    for (const tools of Object.values(this.data.agents)) {
      for (const [tool, sessions] of Object.entries(tools)) {
        await slice.maybeYield();
        for (const [key, u] of Object.entries(sessions)) if (u.last < cutoff) drop(sessions, key);
        if (Object.keys(sessions).length === 0) drop(tools, tool);
      }
    }
    for (const [id, p] of Object.entries(this.data.pending)) if (p.ts < cutoff) drop(this.data.pending, id);
    for (const runs of Object.values(this.data.runs)) {
      const old = runs.findIndex((x) => x.last >= cutoff);
      const n = old === -1 ? runs.length : old;
      if (n > 0) {
        runs.splice(0, n);
        this.dirty = true;
      }
    }
    const firstDay = new Date(now - DAILY_DAYS * DAY_MS).toISOString().slice(0, 10);
    for (const [agent, days] of Object.entries(this.data.daily))
      for (const d of Object.keys(days))
        if (d < firstDay) {
          drop(days, d);
          this.touched(agent);
        }
  }

  /** Exact (not rolled-up) sessions per agent-and-tool map: counted once, then kept as sessions come. */
  private readonly exactCount = new WeakMap<ToolUsage, number>();

  /**
   * Past MAX_SESSIONS_PER_TOOL sessions for one agent and tool, the oldest are folded into one entry
   * per day (calls summed, sessions counted, last use kept), which is what the promotion rule reads.
   * Runs when a new session makes a tool's map twice the bound, so its cost is spread over the read.
   */
  private rollUp(sessions: ToolUsage): void {
    const exact = Object.entries(sessions).filter(([key]) => !key.startsWith(ROLLUP_PREFIX));
    exact.sort((a, b) => b[1].last - a[1].last);
    for (const [key, u] of exact.slice(MAX_SESSIONS_PER_TOOL)) {
      delete sessions[key];
      const dayKey = this.rollupKey(u.last);
      const d = sessions[dayKey];
      if (d) {
        d.first = Math.min(d.first, u.first);
        d.last = Math.max(d.last, u.last);
        d.calls += u.calls;
        d.sessions = (d.sessions ?? 1) + (u.sessions ?? 1);
      } else sessions[dayKey] = { first: u.first, last: u.last, calls: u.calls, sessions: u.sessions ?? 1 };
    }
    this.exactCount.set(sessions, Math.min(exact.length, MAX_SESSIONS_PER_TOOL));
  }

  /** Roll-up keys by day number: a backlog folds a million sessions into a few days' keys. */
  private readonly rollupKeys = new Map<number, string>();

  private rollupKey(ts: number): string {
    const n = Math.floor(ts / DAY_MS);
    let key = this.rollupKeys.get(n);
    if (key === undefined) {
      if (this.rollupKeys.size >= 1024) this.rollupKeys.clear(); // bounded, whatever the log's span
      key = ROLLUP_PREFIX + new Date(n * DAY_MS).toISOString().slice(0, 10);
      this.rollupKeys.set(n, key);
    }
    return key;
  }

  private use(agent: string, tool: string, session: string, ts: number): void {
    this.dirty = true;
    const sessions = ((this.data.agents[agent] ??= dict())[tool] ??= dict());
    const u = sessions[session];
    if (u) {
      u.first = Math.min(u.first, ts);
      u.last = Math.max(u.last, ts);
      u.calls++;
    } else {
      sessions[session] = { first: ts, last: ts, calls: 1 };
      const n = (this.exactCount.get(sessions) ?? Object.keys(sessions).filter((k) => !k.startsWith(ROLLUP_PREFIX)).length - 1) + 1;
      this.exactCount.set(sessions, n);
      if (n > 2 * MAX_SESSIONS_PER_TOOL) this.rollUp(sessions);
    }
    const last = (this.data.lastUsed[agent] ??= dict());
    last[tool] = Math.max(last[tool] ?? 0, ts);
  }

  /**
   * Notes the agent active at `ts`; answers the work session that holds it. Every record read for an
   * agent (a call, a search, a transcript's result) comes here before it changes what a report reads of
   * the agent's usage, so the agent's revision moves on here.
   */
  private activity(agent: string, ts: number): Run {
    this.dirty = true;
    this.touched(agent);
    return addToRuns((this.data.runs[agent] ??= []), ts);
  }
}

/** A use entry's key: the work session it was in when read (runs only grow, so it stays inside one). */
const workKey = (run: Run): string => `work:${run.first}`;

/** Splits long synchronous work: yields to the event loop once INGEST_SLICE_MS have gone by (core/timeSlice.ts). */
export class Slicer extends TimeSlicer {
  constructor(now?: () => number, pause?: () => Promise<void>) {
    super({ sliceMs: INGEST_SLICE_MS, ...(now ? { now } : {}), ...(pause ? { pause } : {}) });
  }
}
