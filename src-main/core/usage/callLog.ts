// The proxy's own record of calls and searches: stateDir/calls.jsonl. Never arguments, results or
// query text: the log is kept for months and may be shared when reporting a problem.
// A call is written before its answer goes out (store/jsonl.ts), so kill -9 loses none it answered;
// one that could not be written (a full disk) is counted per agent, for `mws report` and the log.
// Its disk use has a ceiling: every text a client controls is cut (callRecordBounds.ts), and past
// `activity.maxFileMB` the file moves to calls.1.jsonl at the write that would cross it.
import { join } from 'node:path';
import { DEFAULT_ACTIVITY_MAX_FILE_MB } from '../config/configSchema.js';
import { JsonlAppender } from '../store/jsonl.js';
import { isDiskFull } from '../store/writeFailure.js';
import { silentLogger, type Logger } from '../log.js';
import { boundCallRecord, boundSearchRecord } from './callRecordBounds.js';
import type { CallRecord, SearchRecord } from './callRecordTypes.js';

export const CALL_LOG_FILE = 'calls.jsonl';
/** Where calls.jsonl moves when it is full, replacing the one moved before. */
export const CALL_LOG_ROTATED_FILE = 'calls.1.jsonl';
export const MIB = 1024 * 1024;
/** While records are being dropped, the log says so at most this often (a full disk is not news per call). */
export const DROP_LOG_EVERY_MS = 60_000;

export type { CallRecord, SearchRecord } from './callRecordTypes.js';

/** Where call and search records go: calls.jsonl, or a database (statestore/). Never blocks the call. */
export interface CallRecorder {
  /** A shared store answers when the record is committed; the caller holds the call's answer until then. */
  call(r: CallRecord): void | Promise<void>;
  search(r: SearchRecord): void;
  /** Records of `agent` (or of all) that could not be written since start. */
  droppedRecords(agent?: string): number;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export class CallLog implements CallRecorder {
  private readonly out: JsonlAppender;
  private readonly droppedBy = new Map<string, number>();
  private lastDropLog = -Infinity;
  private unloggedDrops = 0;

  constructor(
    private readonly stateDir: string,
    private readonly o: { log?: Logger; now?: () => number; maxBytes?: () => number } = {},
  ) {
    this.out = new JsonlAppender(join(stateDir, CALL_LOG_FILE), {
      rotate: { to: join(stateDir, CALL_LOG_ROTATED_FILE), maxBytes: o.maxBytes ?? (() => DEFAULT_ACTIVITY_MAX_FILE_MB * MIB) },
    });
  }

  call(r: CallRecord): void {
    const b = boundCallRecord(r);
    if (!this.out.append(b)) this.dropped(b.agent, this.lastError);
  }

  search(r: SearchRecord): void {
    const b = boundSearchRecord(r);
    if (!this.out.append(b)) this.dropped(b.agent, this.lastError);
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
