// Calls answered before the user decided. Clients give up on a request after about a minute, so the
// gate answers a waiting call first ("waits for the user, call again"); its inbox entry outlives the
// request, a retry of the same call (agent, tool, arguments) joins that entry instead of asking twice,
// and a decision taken after the client was answered is kept for the retry.
import { createHash } from 'node:crypto';
import type { Outcome } from './pending.js';
import { stable } from '../toolbox/hash.js';
import { LRUCache } from 'lru-cache';

/** Decisions kept for a retry at most: one per waiting call, and waiting calls are bounded per agent. */
const MAX_KEPT_DECISIONS = 1000;

/** The same call: one agent, one tool, the same arguments (key order does not matter). */
export function callKey(agent: string, tool: string, args: Record<string, unknown>): string {
  return createHash('sha256')
    .update(stable([agent, tool, args]))
    .digest('hex');
}

type Open = { outcome: Promise<Outcome>; waiting: number };

export class ApprovalRetries {
  private readonly open = new Map<string, Open>();
  /** Each kept `keepMs` on the injected clock (read at each look: no cached time), the oldest out past the bound. */
  private readonly decided: LRUCache<string, 'once' | 'deny'>;

  /** `keepMs`: how long a decision waits for its retry (the approval timeout: as long as the entry waited). */
  constructor(now: () => number, keepMs: number) {
    this.decided = new LRUCache({ max: MAX_KEPT_DECISIONS, ttl: Math.max(1, Math.round(keepMs)), ttlResolution: 0, perf: { now } });
  }

  /** A decision the user took after this call's client was answered; taken once. */
  take(key: string): 'once' | 'deny' | undefined {
    const d = this.decided.get(key);
    this.decided.delete(key);
    return d;
  }

  /**
   * The outcome of the inbox entry a retry of this call joins: one whose own request was answered
   * already. Identical calls made at the same time each wait in their own entry, as before (the
   * per-agent cap on waiting calls counts them).
   */
  joined(key: string): Promise<Outcome> | undefined {
    const e = this.open.get(key);
    return e && e.waiting === 0 ? e.outcome : undefined;
  }

  /** Keeps the entry's outcome for retries until it is decided. */
  opened(key: string, outcome: Promise<Outcome>): void {
    const entry: Open = { outcome, waiting: 0 };
    this.open.set(key, entry);
    void outcome.then((o) => {
      if (this.open.get(key) === entry) this.open.delete(key);
      // Nobody is waiting any more: the decision is for the retry. `allow` needs no keeping (it is a grant).
      if (entry.waiting === 0 && (o === 'once' || o === 'deny')) this.keep(key, o);
    });
  }

  /** A request starts or stops waiting on the entry (the decision goes to it, not to a later retry). */
  attach(key: string): () => void {
    const entry = this.open.get(key);
    if (!entry) return () => {};
    entry.waiting++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      entry.waiting--;
    };
  }

  private keep(key: string, outcome: 'once' | 'deny'): void {
    this.decided.set(key, outcome);
  }
}
