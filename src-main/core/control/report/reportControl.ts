// The report control method: what each agent lists and what that costs in context, against listing
// everything, with its calls, searches and history. The toolbox's cost and the token counts come
// from ToolboxCosts (counted ahead by the app); each agent's history is counted once per change, and
// each agent's report is built again only when something it shows may have changed.
import { DAY_MS, type Clock } from '../../clock.js';
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
import { ToolboxCosts, type ToolboxCost } from './toolboxCosts.js';
import { Rerun } from '../../serial.js';
import { objectId } from '../../identity.js';
import { KeptReports } from './keptReports.js';

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
  const kept = new KeptReports(p.clock);

  /**
   * Per agent, its history counted by cause, read again only after it gained lines (the sets' history
   * revision). A read during a change is kept under the revision before it, so the next report reads again.
   */
  const historyCache = new Map<string, { rev: number; counts: Promise<AgentReport['history']> }>();
  p.events.on((e) => {
    if (e.type === 'setChanged' || e.type === 'toolsDemoted') setImmediate(() => readAhead.ask());
  });
  const historyCounts = (agent: string): Promise<AgentReport['history']> => {
    const rev = p.sets.historyRevision(agent);
    const hit = historyCache.get(agent);
    if (hit && hit.rev === rev) return hit.counts;
    const counts = p.sets.history(agent).then(countHistory);
    historyCache.set(agent, { rev, counts });
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
    kept.retain(configured);
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

  const agentReport = async (id: string, whole: ToolboxCost, isoOf: (ms: number | null) => string | null): Promise<AgentReport> => {
    const history = await historyCounts(id);
    const now = p.clock.now();
    const agent = p.sets.agent(id);
    const listedTools = p.router.listedFor(id);
    const droppedCallRecords = p.droppedCallRecords?.(id) ?? 0;
    // Every input is read before the report is built: a change during the build leaves a key older
    // than the report, which the next report builds again. The config and the toolbox as a whole: a
    // setting or a tool a report shows through none of the others is not missed (both change rarely).
    const key = [
      objectId(p.config),
      objectId(agent),
      objectId(p.catalog.toolbox()),
      objectId(p.sets.names(id)),
      p.sets.memberRevision(id),
      objectId(listedTools),
      p.usage.revision(id),
      objectId(history),
      Math.floor(now / DAY_MS),
      droppedCallRecords,
      whole.bytes,
      whole.tokens,
      whole.tools,
    ];
    const hit = kept.get(id, key);
    if (hit) return hit;
    return kept.keep(
      id,
      key,
      await buildReport({
        counts: tokenCounts,
        agent,
        listed: p.members(id, isoOf),
        listedTools,
        toolboxCost: whole,
        tallies: p.usage.tallies(id),
        searches: p.usage.searches(id),
        history,
        daily: p.usage.daily(id, now),
        droppedCallRecords,
      }),
    );
  };

  return {
    async report(a) {
      await p.sets.ingest(p.clock.now());
      const whole = await costs.whole();
      const ids = a.agent ? [p.agentId(a.agent)] : p.config.agents.map((x) => x.id);
      if (!a.agent) kept.retain(new Set(ids));
      // Pins and promotions made together share their times: each is written out once per report.
      const isoOf = memoIso();
      const reports = await Promise.all(ids.map((id) => agentReport(id, whole, isoOf)));
      // Whatever was tokenized for the first time is kept for the next start (a write only then). A
      // cache: on a full disk the report is still the answer, and the next start counts again.
      await tokenCounts.save().catch((err: unknown) => {
        if (!isDiskFull(err)) throw err;
      });
      return reports;
    },
  };
}
