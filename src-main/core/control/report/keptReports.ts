// Each agent's last report, answered again while what it was built from is the same. With 100 agents a
// report is megabytes of JSON, and between two reports (a window open on them asks at every change) most
// agents did nothing. A kept report is frozen all the way down, so no caller can change what the next
// one is given, and the listener makes its JSON once (envelopeJson.ts). Kept reports go when no report
// was asked for a while: a window closed on them must not hold them for the months the app runs.
import { after, type Clock } from '../../clock.js';
import { sameItems } from '../../identity.js';
import { deepFreeze } from '../../immutable.js';
import type { AgentReport } from '../api.js';

/** How long reports are kept after the last one was asked for. */
export const REPORTS_KEPT_MS = 10 * 60_000;

export class KeptReports {
  private readonly byAgent = new Map<string, { key: readonly number[]; report: AgentReport }>();
  private cancelExpiry: (() => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly keepMs = REPORTS_KEPT_MS,
  ) {}

  /**
   * The agent's report when it was built from the same key: numbers only (objects by their objectId,
   * identity.ts), so a replaced toolbox or config is not kept alive by a key.
   */
  get(agent: string, key: readonly number[]): AgentReport | undefined {
    this.asked();
    const hit = this.byAgent.get(agent);
    return hit && sameItems(hit.key, key) ? hit.report : undefined;
  }

  /** Keeps `report`, frozen, under `key`; answers it. */
  keep(agent: string, key: readonly number[], report: AgentReport): AgentReport {
    this.byAgent.set(agent, { key, report: deepFreeze(report) });
    return report;
  }

  /** Forgets the agents not in `ids` (agents come and go in an app that runs for months). */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.byAgent.keys()) if (!ids.has(id)) this.byAgent.delete(id);
  }

  /** How many agents' reports are kept (tests). */
  get size(): number {
    return this.byAgent.size;
  }

  private asked(): void {
    this.cancelExpiry?.();
    this.cancelExpiry = after(this.clock, this.keepMs, () => {
      this.cancelExpiry = undefined;
      this.byAgent.clear();
    });
  }
}
