// One upstream's log, as the window's log view and `mws upstream log` show it: the last lines its
// server printed on stderr and what happened to its connection (started, up, down and why, retries,
// restarts), oldest first. In memory only and bounded; it outlives the upstream's connections.
import { errorMessage } from '../errors.js';

/** Lines kept per upstream: a screenful or two of a crash, without growing with a chatty server. */
export const UPSTREAM_LOG_LINES = 200;
const MAX_LINE = 500;

export type UpstreamLogEntry = { ts: number; kind: 'stderr' | 'event'; text: string };

export class UpstreamJournal {
  private readonly kept: UpstreamLogEntry[] = [];
  private partial = '';

  constructor(private readonly now: () => number) {}

  /** A chunk of the server's stderr: whole lines are kept, a line still being written waits for its end. */
  stderr(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(-MAX_LINE * 4);
    for (const line of parts) {
      // Terminal colour codes and blank lines say nothing here.
      const clean = line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trimEnd();
      if (clean.trim()) this.add('stderr', clean);
    }
  }

  event(text: string, err?: unknown): void {
    this.add('event', err === undefined ? text : `${text}: ${errorMessage(err)}`);
  }

  /** The last `limit` entries (all kept when not given), oldest first; a stderr line still open counts. */
  entries(limit = UPSTREAM_LOG_LINES): UpstreamLogEntry[] {
    const all = this.partial.trim() ? [...this.kept, { ts: this.now(), kind: 'stderr' as const, text: clip(this.partial) }] : this.kept;
    return all.slice(-Math.max(1, Math.min(limit, UPSTREAM_LOG_LINES)));
  }

  private add(kind: UpstreamLogEntry['kind'], text: string): void {
    this.kept.push({ ts: this.now(), kind, text: clip(text) });
    if (this.kept.length > UPSTREAM_LOG_LINES) this.kept.splice(0, this.kept.length - UPSTREAM_LOG_LINES);
  }
}

function clip(s: string): string {
  return s.length > MAX_LINE ? `${s.slice(0, MAX_LINE)}…` : s;
}
