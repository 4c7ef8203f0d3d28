// The report control method: what each agent lists and what that costs in context, against listing
// everything, with its calls, searches and history. The toolbox's cost and the token counts come
// from ToolboxCosts (counted ahead by the app); each agent's history is counted once per change.
import type { Clock } from '../../clock.js';
import type { Config } from '../../config/schema.js';
import type { ToolboxCatalog } from '../../toolbox/merge.js';
import type { ToolRouter } from '../../proxy/toolRouter.js';
import type { WorkingSets } from '../../workingset/manager.js';
import type { UsageStore } from '../../usage/usageStore.js';
import { metaTools } from '../../metaTools/definitions.js';
import { isDiskFull } from '../../store/writeFailure.js';
import type { AgentReport, MemberRow } from '../api.js';
import type { ControlHandlers } from '../contract.js';
import type { CoreEvents } from '../events.js';
import { buildReport, countHistory, memoIso } from './report.js';
import { ToolboxCosts } from './toolboxCosts.js';
import { Rerun } from '../../serial.js';

export type ReportParts = {
  readonly config: Config;
  clock: Clock;
  catalog: ToolboxCatalog;
  router: ToolRouter;
  sets: WorkingSets;
  usage: UsageStore;
  events: CoreEvents;
  costs?: ToolboxCosts;
  droppedCallRecords?: (agent: string) => number;
  agentId: (id: string) => string;
  members: (agent: string, isoOf: (ms: number | null) => string | null) => MemberRow[];
};

export function reportControl(p: ReportParts): Pick<ControlHandlers, 'report'> {
  const costs =
    p.costs ??
    new ToolboxCosts({
      stateDir: p.config.stateDir,
      toolbox: () => p.catalog.toolbox(),
      compact: () => p.config.compactDescriptions,
      metaTools: () => metaTools(p.config.backendHints),
      clock: p.clock,
    });
  const tokenCounts = costs.counts;

  /**
   * Per agent, its history counted by cause, read again only after the agent's set changed: every
   * history line is written by a change that emits setChanged for that agent. A change during a read
   * makes that read's answer stale, so it is not kept.
   */
  const historyGen = new Map<string, number>();
  const historyCache = new Map<string, { gen: number; counts: Promise<AgentReport['history']> }>();
  p.events.on((e) => {
    if (e.type !== 'setChanged' && e.type !== 'toolsDemoted') return;
    historyGen.set(e.agent, (historyGen.get(e.agent) ?? 0) + 1);
    historyCache.delete(e.agent);
    setImmediate(() => readAhead.ask());
  });
  const historyCounts = (agent: string): Promise<AgentReport['history']> => {
    const gen = historyGen.get(agent) ?? 0;
    const hit = historyCache.get(agent);
    if (hit && hit.gen === gen) return hit.counts;
    const counts = p.sets.history(agent).then(countHistory);
    historyCache.set(agent, { gen, counts });
    counts.catch(() => historyCache.delete(agent));
    return counts;
  };

  /**
   * Reads ahead what the first report would otherwise read on its own request (each agent's history
   * counts), a turn of the event loop per agent, once usage was read (after the start's first
   * cycle, and a moment after calls stop) and after a set changed: the first report then costs what
   * the next one does. What did not change is not read again.
   */
  const readAhead = new Rerun(async () => {
    // A removed agent's counts go with it (agents come and go in an app that runs for months).
    const configured = new Set(p.config.agents.map((a) => a.id));
    for (const id of historyCache.keys()) if (!configured.has(id)) historyCache.delete(id);
    for (const id of historyGen.keys()) if (!configured.has(id)) historyGen.delete(id);
    for (const { id } of p.config.agents) {
      // Only ahead of a report: an agent removed meanwhile or a history that cannot be read now is
      // the report's to say, not an error here.
      try {
        await historyCounts(id);
      } catch {
        // the report reads it again
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  p.sets.onIngested(() => readAhead.ask());

  return {
    async report(a) {
      await p.sets.ingest(p.clock.now());
      const whole = await costs.whole();
      const ids = a.agent ? [p.agentId(a.agent)] : p.config.agents.map((x) => x.id);
      // Pins and promotions made together share their times: each is written out once per report.
      const isoOf = memoIso();
      const reports = await Promise.all(
        ids.map(async (id) =>
          buildReport({
            counts: tokenCounts,
            agent: p.sets.agent(id),
            listed: p.members(id, isoOf),
            listedTools: p.router.listedFor(id),
            toolboxCost: whole,
            tallies: p.usage.tallies(id),
            searches: p.usage.searches(id),
            history: await historyCounts(id),
            daily: p.usage.daily(id, p.clock.now()),
            droppedCallRecords: p.droppedCallRecords?.(id) ?? 0,
          }),
        ),
      );
      // Whatever was tokenized for the first time is kept for the next start (a write only then). A
      // cache: on a full disk the report is still the answer, and the next start counts again.
      await tokenCounts.save().catch((err: unknown) => {
        if (!isDiskFull(err)) throw err;
      });
      return reports;
    },
  };
}
