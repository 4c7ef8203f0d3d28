// One call as the activity log shows it (no Node imports here: the window reads this type).
export type ActivityEntry = {
  ts: string;
  agent: string;
  tool: string;
  upstream: string | null;
  via: string;
  ok: boolean;
  ms: number;
  client: string;
  /** Refused before it ran: never reached the upstream. */
  refused?: boolean;
  /** Why it failed or was refused, in a sentence. */
  reason?: string;
  /** Only when the user turned on `activity.recordArguments`. */
  arguments?: unknown;
  result?: string;
};
