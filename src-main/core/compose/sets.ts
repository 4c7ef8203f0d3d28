// The working sets and approvals: calls waiting for an answer, the per-agent sets, remembered grants
// and the gate every call passes.
import { PendingApprovals } from '../approvals/pending.js';
import { ApprovalGate } from '../approvals/gate.js';
import { ApprovalGrants } from '../approvals/grants.js';
import { WorkingSets } from '../workingset/manager.js';
import { CallsInFlight } from '../proxy/inFlight.js';
import { AgentLastSeen } from '../proxy/lastSeen.js';
import { saveFailed } from '../store/writeFailure.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { AppContext } from './context.js';
import type { Stores } from './stores.js';

export type SetsPart = {
  inFlight: CallsInFlight;
  lastSeen: AgentLastSeen;
  pending: PendingApprovals;
  sets: WorkingSets;
  gate: ApprovalGate;
};

export function buildSets(ctx: AppContext, stores: Stores, catalog: ToolboxCatalog, approvalKeepAliveMs: number | undefined): SetsPart {
  const { events } = ctx;
  const inFlight = new CallsInFlight();
  const lastSeen = new AgentLastSeen();
  // Before the working sets: an agent with a call in the inbox is busy for the sweep.
  const pending = new PendingApprovals(
    () => ctx.config.timeouts.approvalMs,
    ctx.now,
    (call) => events.emit({ type: 'approvalPending', call }),
  );
  const sets: WorkingSets = new WorkingSets({
    // Read at each use: reconfigure replaces it.
    get config() {
      return ctx.config;
    },
    clock: ctx.clock,
    log: ctx.log,
    files: stores.files,
    usage: stores.usage,
    seed: stores.seed,
    toolbox: () => catalog.toolbox(),
    // A call whose client was answered while it waits for approval still waits: its agent is busy.
    busy: (agent) => inFlight.count(agent) > 0 || pending.count(agent) > 0,
    lastActive: (agent) => lastSeen.last(agent),
    revoked: () => catalog.revokedVendors(),
    events: {
      changed: (agents) => ctx.setsChanged.forEach((f) => f(agents)),
      demoted: (agent, tools, cause) => events.emit({ type: 'toolsDemoted', agent, tools, cause }),
    },
  });
  const grants = new ApprovalGrants(
    {
      records: (agent) => sets.states.state(agent).approvals,
      save: (agent) => sets.states.save(agent),
      failed: (err, what) => saveFailed(err, what, ctx.config.stateDir),
    },
    ctx.now,
  );
  const gate = new ApprovalGate(ctx.config, grants, pending, ctx.now, approvalKeepAliveMs);
  return { inFlight, lastSeen, pending, sets, gate };
}
