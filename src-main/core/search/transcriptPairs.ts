// Search→call pairs from Claude Code transcripts: a `search_tools` tool_use with a query, followed in the
// same session (within LEARN_WINDOW_MS) by a call to a tool of this proxy — directly, through
// `call_tool`, or by `promote`. Fed to SearchLearning.train by whoever reads the transcripts.
import { LEARN_WINDOW_MS, type SearchLearning } from './learning.js';

type Block = { type?: string; name?: string; input?: { query?: unknown; name?: unknown } };
type Event = { sessionId?: string; timestamp?: string; message?: { content?: unknown } };

export type TranscriptPair = { query: string; tool: string; ts: number };

/** Reads transcript lines in order; answers the pairs they hold. Keeps one pending search per session. */
export class TranscriptPairReader {
  private readonly pending = new Map<string, { query: string; ts: number; calls: number }>();

  constructor(private readonly serverName: string) {}

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
    const session = ev.sessionId ?? 'unknown';
    const prefix = `mcp__${this.serverName}__`;
    const out: TranscriptPair[] = [];
    for (const b of content) {
      if (b?.type !== 'tool_use' || typeof b.name !== 'string' || !b.name.startsWith(prefix)) continue;
      const name = b.name.slice(prefix.length);
      if (name === 'search_tools') {
        const q = b.input?.query;
        if (typeof q === 'string' && q.trim()) this.pending.set(session, { query: q.trim(), ts, calls: 0 });
        else this.pending.delete(session);
        continue;
      }
      if (name === 'demote') continue;
      const tool = name === 'call_tool' || name === 'promote' ? b.input?.name : name;
      const s = this.pending.get(session);
      if (typeof tool !== 'string' || !s) continue;
      if (ts - s.ts > LEARN_WINDOW_MS || s.calls >= 3) {
        this.pending.delete(session);
        continue;
      }
      s.calls++;
      out.push({ query: s.query, tool, ts });
    }
    // Sessions are many and short: keep the pending map small.
    if (this.pending.size > 1000) this.pending.delete(this.pending.keys().next().value!);
    return out;
  }
}

/** Agents whose transcript readers are kept (each holds at most 1,000 pending searches). */
const MAX_READERS = 200;

/**
 * A line observer for the usage ingestion cycle (UsageStore.onTranscriptLine): each transcript line
 * read, with the agent its folder belongs to, becomes search→call pairs for `learning`. Idempotent:
 * a line read twice (cursors started over) adds no pair twice (SearchLearning.observed).
 */
export function transcriptLearner(
  learning: SearchLearning,
  serverName: () => string,
  /** The toolbox's name for a name as the agent typed it (`call_tool` takes short names), as the live path records it. */
  resolve: (name: string) => string = (name) => name,
): (line: string, agent: string) => void {
  const readers = new Map<string, TranscriptPairReader>();
  let name = serverName();
  return (line, agent) => {
    // The server name is read each time: a hand edit of serverName changes which tools are ours.
    if (serverName() !== name) {
      name = serverName();
      readers.clear();
    }
    // Most lines are prose or other tools: only ones naming this proxy's tools are parsed.
    if (!learning.enabled || !line.includes(`mcp__${name}__`)) return;
    let r = readers.get(agent);
    if (!r) {
      if (readers.size >= MAX_READERS) readers.delete(readers.keys().next().value!);
      readers.set(agent, (r = new TranscriptPairReader(name)));
    }
    const pairs = r.read(line);
    if (pairs.length) learning.observed(agent, pairs.map((p) => ({ ...p, tool: resolve(p.tool) })));
  };
}
