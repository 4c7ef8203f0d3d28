// Search→call pairs from Claude Code transcripts: a `search_tools` tool_use with a query, followed in the
// same session (within LEARN_WINDOW_MS) by a call to a tool of this proxy — directly, through
// `call_tool`, or by `promote`. The search's tool_result (the reply a model read, in the next user
// message) names the first hit shown: when the first call after the search goes to another tool, that
// hit was passed over, a negative pair as the live path records it. Fed to SearchLearning.observed.
import { LEARN_WINDOW_MS, type SearchLearning } from './learning.js';
import { LRUCache } from 'lru-cache';

type Block = {
  type?: string;
  id?: string;
  name?: string;
  input?: { query?: unknown; name?: unknown };
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
};
type Event = { sessionId?: string; timestamp?: string; message?: { content?: unknown } };

/** `neg`: the search showed `tool` first and the agent called another one. */
export type TranscriptPair = { query: string; tool: string; ts: number; neg?: true };
type Pending = { query: string; ts: number; calls: number; id?: string; first?: string };

/** A search reply is at most 6 KB (reply.ts); a far longer text is not one, and is not parsed. */
const MAX_REPLY_CHARS = 64 * 1024;
/** Pending searches kept (sessions are many and short). */
const MAX_PENDING = 1000;

/** The first tool a search_tools reply showed: `results[0]` of a ranked or backend reply, `tool` of an exact one. */
export function firstHitOf(content: unknown): string | undefined {
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? (content as Array<{ type?: string; text?: unknown }>).find((c) => c?.type === 'text' && typeof c.text === 'string')?.text
        : undefined;
  if (typeof text !== 'string' || text.length > MAX_REPLY_CHARS) return undefined;
  let reply: { results?: Array<{ name?: unknown }>; tool?: { name?: unknown } };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    return undefined;
  }
  const name = Array.isArray(reply?.results) ? reply.results[0]?.name : reply?.tool?.name;
  return typeof name === 'string' && name ? name : undefined;
}

/** Reads transcript lines in order; answers the pairs they hold. Keeps one pending search per session. */
export class TranscriptPairReader {
  private readonly pending = new Map<string, Pending>();
  /** search_tools tool_use ids whose reply is not read yet → their session. */
  private readonly awaiting = new Map<string, string>();
  /** When (by the transcript's clock) searches past the learning window were last let go. */
  private sweptAt = -Infinity;

  constructor(
    private readonly serverName: string,
    /** The toolbox's name for a name as the agent typed it, so a call and a shown hit compare alike. */
    private readonly resolve: (name: string) => string = (name) => name,
  ) {}

  /** Whether a search's reply is still to come: only then does a line without our tool names matter. */
  get awaitsReply(): boolean {
    return this.awaiting.size > 0;
  }

  read(line: string): TranscriptPair[] {
    let ev: Event;
    try {
      ev = JSON.parse(line) as Event;
    } catch {
      return [];
    }
    const content = Array.isArray(ev.message?.content) ? (ev.message!.content as Block[]) : [];
    const ts = ev.timestamp ? Date.parse(ev.timestamp) : NaN;
    if (Number.isNaN(ts)) return [];
    // A search older than the learning window teaches nothing more; while its reply is awaited, every
    // tool_result line would be parsed (awaitsReply), so such searches are let go once a minute.
    if (ts - this.sweptAt > 60_000) {
      this.sweptAt = ts;
      for (const [session, s] of this.pending) if (ts - s.ts > LEARN_WINDOW_MS) this.drop(session);
    }
    const session = ev.sessionId ?? 'unknown';
    const prefix = `mcp__${this.serverName}__`;
    const out: TranscriptPair[] = [];
    for (const b of content) {
      if (b?.type === 'tool_result') {
        this.replied(b);
        continue;
      }
      if (b?.type !== 'tool_use' || typeof b.name !== 'string' || !b.name.startsWith(prefix)) continue;
      const name = b.name.slice(prefix.length);
      if (name === 'search_tools') {
        const q = b.input?.query;
        this.drop(session);
        if (typeof q === 'string' && q.trim()) {
          this.pending.set(session, { query: q.trim(), ts, calls: 0, ...(typeof b.id === 'string' ? { id: b.id } : {}) });
          if (typeof b.id === 'string') this.awaiting.set(b.id, session);
        }
        continue;
      }
      if (name === 'demote') continue;
      const typed = name === 'call_tool' || name === 'promote' ? b.input?.name : name;
      const s = this.pending.get(session);
      if (typeof typed !== 'string' || !s) continue;
      if (ts - s.ts > LEARN_WINDOW_MS || s.calls >= 3) {
        this.drop(session);
        continue;
      }
      const tool = this.resolve(typed);
      s.calls++;
      out.push({ query: s.query, tool, ts });
      // As SearchLearning.called: the first hit shown, passed over by the first call, counts against it.
      if (s.calls === 1 && s.first && s.first !== tool) out.push({ query: s.query, tool: s.first, ts, neg: true });
    }
    // Sessions are many and short: keep the pending map small.
    if (this.pending.size > MAX_PENDING) this.drop(this.pending.keys().next().value!);
    return out;
  }

  /** A tool_result: when it answers a pending search, its first hit is kept for that search. */
  private replied(b: Block): void {
    const session = typeof b.tool_use_id === 'string' ? this.awaiting.get(b.tool_use_id) : undefined;
    if (session === undefined) return;
    this.awaiting.delete(b.tool_use_id!);
    const s = this.pending.get(session);
    if (!s || s.id !== b.tool_use_id || b.is_error === true) return;
    const first = firstHitOf(b.content);
    if (first) s.first = this.resolve(first);
  }

  private drop(session: string): void {
    const s = this.pending.get(session);
    if (s?.id !== undefined) this.awaiting.delete(s.id);
    this.pending.delete(session);
  }
}

/** Agents whose transcript readers are kept (each holds at most 1,000 pending searches). */
const MAX_READERS = 200;

/**
 * A line observer for the usage ingestion cycle (UsageStore.onTranscriptLine): each transcript line
 * read, with the agent its folder belongs to, becomes search→call pairs (and ignored first hits) for
 * `learning`. Idempotent:
 * a line read twice (cursors started over) adds no pair twice (SearchLearning.observed).
 */
export function transcriptLearner(
  learning: SearchLearning,
  serverName: () => string,
  /** The toolbox's name for a name as the agent typed it (`call_tool` takes short names), as the live path records it. */
  resolve: (name: string) => string = (name) => name,
): (line: string, agent: string) => void {
  const readers = new LRUCache<string, TranscriptPairReader>({ max: MAX_READERS });
  let name = serverName();
  return (line, agent) => {
    // The server name is read each time: a hand edit of serverName changes which tools are ours.
    if (serverName() !== name) {
      name = serverName();
      readers.clear();
    }
    if (!learning.enabled) return;
    let r = readers.get(agent);
    // Most lines are prose or other tools: only ones naming this proxy's tools are parsed, and tool
    // results while a search's reply (which names no tool of ours in the line's framing) is awaited.
    if (!line.includes(`mcp__${name}__`) && !(r?.awaitsReply && line.includes('tool_result'))) return;
    if (!r) {
      readers.set(agent, (r = new TranscriptPairReader(name, resolve)));
    }
    const pairs = r.read(line);
    if (pairs.length) learning.observed(agent, pairs);
  };
}
