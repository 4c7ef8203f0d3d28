// When the rules may change an agent's list: a list change costs the model its prompt cache for that
// agent (and some clients ignore list_changed mid-session), so the sweep and usage promotions wait
// until the agent has been quiet for a while. Revocations go at once: those tools are gone anyway.
import type { Decision } from './types.js';

// The default, `listChanges.quietMinutes`, is DEFAULT_QUIET_MINUTES in config/configSchema.ts.
/**
 * Whether an agent is quiet: nothing in flight, and no request for `quietMs`. An agent not seen since
 * the instance started counts from the start: a restart is no quiet moment (its clients reconnect and
 * carry on), so nothing held lands at it.
 */
export function isQuiet(lastActive: number | undefined, busy: boolean, now: number, quietMs: number, startedAt?: number): boolean {
  if (busy) return false;
  const since = lastActive ?? startedAt;
  return since === undefined || now - since >= quietMs;
}

/** What the rules may change now, and what waits for the agent to be quiet. */
export function holdWhileActive(
  promotions: Decision[],
  demotions: Decision[],
  quiet: boolean,
): { promotions: Decision[]; demotions: Decision[]; held: Decision[] } {
  if (quiet) return { promotions, demotions, held: [] };
  const now = demotions.filter((d) => d.cause === 'revoked');
  return { promotions: [], demotions: now, held: [...promotions, ...demotions.filter((d) => d.cause !== 'revoked')] };
}
