// The proxy's own record of calls and searches: stateDir/calls.jsonl. Never arguments, results or
// query text: the log is kept for months and may be shared when reporting a problem.
// A call is written before its answer goes out (store/jsonl.ts), so kill -9 loses none it answered;
// one that could not be written (a full disk) is counted per agent, for `mws report` and the log.
import { join } from 'node:path';
import { JsonlAppender } from '../store/jsonl.js';
import { isDiskFull } from '../store/writeFailure.js';
import { silentLogger, type Logger } from '../log.js';

export const CALL_LOG_FILE = 'calls.jsonl';
/** While records are being dropped, the log says so at most this often (a full disk is not news per call). */
export const DROP_LOG_EVERY_MS = 60_000;

export type CallRecord = {
  ts: string;
  agent: string;
  tool: string;
  via: 'direct' | 'call_tool';
  ok: boolean;
  ms: number;
  client: string;
  session: string | null;
  /** The upstream (vendor) that served it, for the activity log. */
  upstream?: string;
  /** Refused before it ran (unknown tool, arguments that do not fit, an approval denied or unanswered): never forwarded. */
  refused?: true;
  /** Why a call failed or was refused: Working Set's sentence, or the first line of the tool's error (activity/reason.ts). */
  reason?: string;
  /** Only with `activity.recordArguments` on: the arguments and the start of the result, cut to a bound. */
  arguments?: unknown;
  result?: string;
};

export type SearchRecord = { ts: string; event: 'search'; agent: string; bytes: number; results: number; client: string };

export class CallLog {
  private readonly out: JsonlAppender;
  private readonly droppedBy = new Map<string, number>();
  private lastDropLog = -Infinity;
  private unloggedDrops = 0;

  constructor(
    private readonly stateDir: string,
    private readonly o: { log?: Logger; now?: () => number } = {},
  ) {
    this.out = new JsonlAppender(join(stateDir, CALL_LOG_FILE));
  }

  call(r: CallRecord): void {
    if (!this.out.append(r)) this.dropped(r.agent, this.lastError);
  }

  search(r: SearchRecord): void {
    if (!this.out.append(r)) this.dropped(r.agent, this.lastError);
  }

  /** Call and search records of `agent` (or of all) that could not be written since start. */
  droppedRecords(agent?: string): number {
    if (agent !== undefined) return this.droppedBy.get(agent) ?? 0;
    let n = 0;
    for (const v of this.droppedBy.values()) n += v;
    return n;
  }

  flush(): Promise<void> {
    return this.out.flush();
  }

  close(): Promise<void> {
    return this.out.close();
  }

  private get lastError(): Error | undefined {
    return this.out.lastError;
  }

  private dropped(agent: string, err: Error | undefined): void {
    this.droppedBy.set(agent, (this.droppedBy.get(agent) ?? 0) + 1);
    this.unloggedDrops++;
    const now = (this.o.now ?? Date.now)();
    if (now - this.lastDropLog < DROP_LOG_EVERY_MS) return;
    this.lastDropLog = now;
    const why = isDiskFull(err) ? 'the disk is full' : (err?.message ?? 'the write failed');
    (this.o.log ?? silentLogger).warn(
      `${this.unloggedDrops} call record${this.unloggedDrops === 1 ? '' : 's'} could not be written to ${join(this.stateDir, CALL_LOG_FILE)} (${why}); ${this.droppedRecords()} dropped since start (mws report shows them per agent). Free some space in the state folder.`,
    );
    this.unloggedDrops = 0;
  }
}
