// When the rules may change an agent's list: a list change costs the model its prompt cache for that
// agent (and some clients ignore list_changed mid-session), so the sweep and usage promotions wait
// until the agent has been quiet for a while. Revocations go at once: those tools are gone anyway.
import type { Decision } from './types.js';

// The default, `listChanges.quietMinutes`, is DEFAULT_QUIET_MINUTES in config/configSchema.ts.
/** Whether an agent is quiet: nothing in flight, and no request for `quietMs` (never seen counts as quiet). */
export function isQuiet(lastActive: number | undefined, busy: boolean, now: number, quietMs: number): boolean {
  if (busy) return false;
  return lastActive === undefined || now - lastActive >= quietMs;
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
