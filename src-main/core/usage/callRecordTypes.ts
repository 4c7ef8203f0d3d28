// The shapes of the call log's records: one per call and one per search (callLog.ts writes them).
export type CallRecord = {
  ts: string;
  agent: string;
  tool: string;
  via: 'direct' | 'call_tool';
  ok: boolean;
  ms: number;
  client: string;
  session: string | null;
  /** The vendor (the name of the upstream that served it), for the activity log; stored under `upstream` in calls.jsonl. */
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
