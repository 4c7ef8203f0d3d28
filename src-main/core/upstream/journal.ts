// One upstream's log, as the window's log view and `mws upstream log` show it: the last lines its
// server printed on stderr and what happened to its connection (started, up, down and why, retries,
// restarts), oldest first. In memory only and bounded; it outlives the upstream's connections.
import { errorMessage } from '../errors.js';
import { StderrLines } from './stderrLines.js';

/** Lines kept per upstream: a screenful or two of a crash, without growing with a chatty server. */
export const UPSTREAM_LOG_LINES = 200;
const MAX_LINE = 500;

export type UpstreamLogEntry = { ts: number; kind: 'stderr' | 'event'; text: string };

export class UpstreamJournal {
  private readonly kept: UpstreamLogEntry[] = [];
  private readonly split = new StderrLines(MAX_LINE * 4);

  constructor(private readonly now: () => number) {}

  /** A chunk of the server's stderr: whole lines are kept, a line still being written waits for its end. */
  stderr(chunk: Buffer | string): void {
    for (const line of this.split.push(chunk)) this.add('stderr', line);
  }

  event(text: string, err?: unknown): void {
    this.add('event', err === undefined ? text : `${text}: ${errorMessage(err)}`);
  }

  /** The last `limit` entries (all kept when not given), oldest first; a stderr line still open counts. */
  entries(limit = UPSTREAM_LOG_LINES): UpstreamLogEntry[] {
    const open = this.split.open;
    const all = open ? [...this.kept, { ts: this.now(), kind: 'stderr' as const, text: clip(open) }] : this.kept;
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
