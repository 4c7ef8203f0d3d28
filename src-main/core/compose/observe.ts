// What the app shows a scraper and a balancer: every call and search counted on its way to the store,
// the gauges read from the parts when scraped, and /healthz and /readyz.
import { Metrics } from '../observe/metrics.js';
import { healthHandlers } from '../observe/health.js';
import type { StateStore } from '../statestore/port.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';
import type { SetsPart } from './sets.js';

/** The metrics, counting from now: the stores' recorder is wrapped, so build it before anything records. */
export function countCalls(ctx: AppContext, stores: Stores, shared: StateStore | undefined): Metrics {
  const metrics = new Metrics();
  stores.recorder = metrics.recorder(stores.recorder);
  shared?.stats?.onQuery((s, ok) => metrics.query(s, ok));
  ctx.events.on((e) => {
    if (e.type === 'toolsDemoted') metrics.demoted(e.cause, e.tools.length);
  });
  return metrics;
}

/** The gauges, read from the parts once they exist, and the health answers. */
export function watchParts(
  metrics: Metrics,
  ctx: AppContext,
  catalog: ToolboxCatalog,
  { sets, pending }: SetsPart,
  shared: StateStore | undefined,
): ReturnType<typeof healthHandlers> {
  metrics.observe({
    upstreams: () => catalog.statuses().map((u) => ({ vendor: u.vendor, status: u.status })),
    setSizes: () =>
      ctx.config.agents.flatMap((a) => (sets.states.loaded(a.id) ? [{ agent: a.id, size: sets.states.memberCount(a.id) }] : [])),
    approvalsWaiting: () => pending.list().length,
    ...(shared?.stats ? { pool: shared.stats.pool } : {}),
  });
  return healthHandlers({
    ...(shared ? { checkDatabase: () => shared.check() } : {}),
    upstreams: () => catalog.statuses().map((u) => u.status),
  });
}
