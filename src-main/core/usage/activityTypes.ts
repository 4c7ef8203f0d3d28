// One call as the activity log shows it (no Node imports here: the window reads this type).
export type ActivityEntry = {
  ts: string;
  agent: string;
  tool: string;
  /** The vendor that served it (the upstream's name), as the activity view and `mws activity --json` show it. */
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
