// The ControlApi's approvals inbox: every agent's waiting calls with what the tool does and how long
// is left, the three answers (allow once, always allow for this agent, deny), and standing grants
// that can be withdrawn.
import { MwsError } from '../errors.js';
import type { Config } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { ToolboxCatalog } from '../toolbox/merge.js';
import type { ApprovalGate } from '../approvals/gate.js';
import type { ToolKind } from '../approvals/types.js';
import type { ToolEntry } from '../toolbox/toolbox.js';
import type { ControlHandlers } from './contract.js';
import type { CoreEvents } from './events.js';
import { byCodeUnit } from '../../shared/codeUnitOrder.js';

export type ApprovalParts = {
  config: Config;
  clock: Clock;
  catalog: ToolboxCatalog;
  gate: ApprovalGate;
  events: CoreEvents;
  /** Checks an agent id (throws agent_not_found with the known ids). */
  agentId: (id: string) => string;
  /** Resolves a tool name (throws tool_not_found with close matches). */
  resolve: (tool: string) => ToolEntry;
};

type Methods = Pick<ControlHandlers, 'pendingApprovals' | 'approve' | 'grants' | 'revokeGrant'>;

export const kindOf = (e: { readOnly: boolean; destructive: boolean } | undefined): ToolKind =>
  e?.readOnly ? 'read-only' : e?.destructive ? 'destructive' : 'write';

export function approvalsControl(p: ApprovalParts): Methods {
  const name = (tool: string) => p.catalog.toolbox().resolve(tool)?.name ?? tool;
  const decided = (agent: string, tool: string) => p.events.emit({ type: 'approvalDecided', agent, tool });

  return {
    async pendingApprovals(a) {
      const tb = p.catalog.toolbox();
      const now = p.clock.now();
      return p.gate.pending
        .list(a.agent ? p.agentId(a.agent) : undefined)
        .sort((x, y) => x.since - y.since)
        .map((c) => {
          const e = tb.get(c.tool);
          return {
            ...c,
            description: e?.tool.description ?? null,
            kind: kindOf(e),
            expiresAt: c.since + p.config.timeouts.approvalMs,
            now,
          };
        });
    },
    async approve(a) {
      const agent = p.agentId(a.agent);
      if (a.deny) {
        const tool = name(a.tool);
        const r = await p.gate.deny(agent, tool, a.id);
        decided(agent, tool);
        return { tool, decided: r.decided, remembered: false, withdrawn: r.withdrawn };
      }
      if (a.once) {
        const tool = name(a.tool);
        const n = p.gate.allowOnce(agent, tool, a.id);
        if (n === 0)
          throw new MwsError(
            'conflict',
            `No call of ${tool} is waiting for ${agent}, so there is nothing to allow once. Use "always allow" to let it run without asking.`,
          );
        decided(agent, tool);
        return { tool, decided: n, remembered: false, withdrawn: false };
      }
      const e = p.resolve(a.tool);
      const n = await p.gate.allow(agent, e);
      decided(agent, e.name);
      return { tool: e.name, decided: n, remembered: true, withdrawn: false };
    },
    async grants(a) {
      const tb = p.catalog.toolbox();
      const ids = a.agent ? [p.agentId(a.agent)] : p.config.agents.map((x) => x.id);
      return ids.flatMap((agent) =>
        Object.entries(p.gate.grants.of(agent))
          .map(([tool, g]) => {
            const e = tb.get(tool);
            return {
              agent,
              tool,
              since: g.at,
              ...(g.by ? { by: g.by } : {}),
              description: e?.tool.description ?? null,
              kind: kindOf(e),
              available: e !== undefined,
            };
          })
          .sort((x, y) => byCodeUnit(x.tool, y.tool)),
      );
    },
    async revokeGrant(a) {
      const agent = p.agentId(a.agent);
      const tool = name(a.tool);
      const revoked = await p.gate.revoke(agent, tool);
      if (revoked) decided(agent, tool);
      return { tool, revoked };
    },
  };
}
