// The proxy's own record of calls and searches: stateDir/calls.jsonl. Never arguments, results or
// query text: the log is kept for months and may be shared when reporting a problem.
import { join } from 'node:path';
import { JsonlAppender } from '../store/jsonl.js';

export const CALL_LOG_FILE = 'calls.jsonl';

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
  /** Only with `activity.recordArguments` on: the arguments and the start of the result, cut to a bound. */
  arguments?: unknown;
  result?: string;
};

export type SearchRecord = { ts: string; event: 'search'; agent: string; bytes: number; results: number; client: string };

export class CallLog {
  private readonly out: JsonlAppender;
  constructor(stateDir: string) {
    this.out = new JsonlAppender(join(stateDir, CALL_LOG_FILE));
  }
  call(r: CallRecord): void {
    this.out.append(r);
  }
  search(r: SearchRecord): void {
    this.out.append(r);
  }
  flush(): Promise<void> {
    return this.out.flush();
  }
  close(): Promise<void> {
    return this.out.close();
  }
}
