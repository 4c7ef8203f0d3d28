// The session rule usage promotion counts by, as a pure function. A call with an MCP session belongs to
// it; a stateless client's calls are grouped by a gap rule per agent and client.

/**
 * Stateless (2026-07-28) clients have no MCP session: calls by one agent and client with less than
 * this between them are one session. Half an hour separates one task from the next for most people.
 */
export const SESSION_GAP_MS = 30 * 60 * 1000;

/** A stateless client's running session: its key and its last call. */
export type GapSession = { key: string; last: number };

/**
 * The session a stateless call at `ts` belongs to: the running one when the call is within
 * SESSION_GAP_MS of its last call (either side: logs are not strictly ordered), else a new one.
 */
export function nextGapSession(running: GapSession | undefined, client: string, ts: number): GapSession {
  if (running && ts - running.last < SESSION_GAP_MS && ts >= running.last - SESSION_GAP_MS)
    return { key: running.key, last: Math.max(running.last, ts) };
  return { key: `gap:${client}:${ts}`, last: ts };
}
