// Every control method, combined from the areas that run them (contract.ts's table says which exist):
// the instance, working sets, search, reports, approvals, running upstreams, their settings, their
// values and secrets, and import. Arguments arrive checked against contract.ts; what is checked in
// the areas needs the state (an agent or a tool that exists).
import type { ControlApi, ControlHandlers } from './contract.js';
import { controlClient } from './envelope.js';
import { reportControl } from './report/reportControl.js';
import { searchControl } from './searchControl.js';
import { settingsControl } from './settings.js';
import { approvalsControl } from './approvals.js';
import { secretsControl } from './secretsControl.js';
import { upstreamOpsControl } from './upstreamOps.js';
import { controlLookups, type ControlParts } from './parts.js';
import { instanceControl } from './instanceControl.js';
import { workingSetControl } from './workingSetControl.js';
import { importControl } from './importControl.js';

export type { ControlParts, InstanceState } from './parts.js';

/** The ControlApi over the core's parts: every caller in process goes through its argument checks. */
export function createControl(p: ControlParts): ControlApi {
  return controlClient(controlHandlers(p));
}

/** Each area reads the config through a getter: a reload replaces it under them. */
export function controlHandlers(p: ControlParts): ControlHandlers {
  const l = controlLookups(p);
  const { agentId, secrets } = l;
  return {
    ...searchControl({ catalog: p.catalog, router: p.router, search: p.search, agentId }),
    ...reportControl({
      get config() {
        return p.config;
      },
      clock: p.clock,
      catalog: p.catalog,
      router: p.router,
      sets: p.sets,
      usage: p.usage,
      events: p.events,
      agentId,
      members: l.members,
      ...(p.costs ? { costs: p.costs } : {}),
      ...(p.droppedCallRecords ? { droppedCallRecords: p.droppedCallRecords } : {}),
    }),
    ...approvalsControl({
      get config() {
        return p.config;
      },
      clock: p.clock,
      catalog: p.catalog,
      gate: p.gate,
      events: p.events,
      agentId,
      resolve: l.resolve,
    }),
    ...upstreamOpsControl({
      get config() {
        return p.config;
      },
      editor: p.editor,
      catalog: p.catalog,
      router: p.router,
      agentId,
      ...(p.recentCalls ? { recentCalls: p.recentCalls } : {}),
    }),
    ...settingsControl({
      get config() {
        return p.config;
      },
      editor: p.editor,
      catalog: p.catalog,
      configPath: p.configPath,
      agentView: l.agentView,
      members: async (a) => l.members(agentId(a.agent)),
      demo: () => p.runtime.demo ?? null,
      secrets,
      now: () => p.clock.now(),
    }),
    ...secretsControl({
      get config() {
        return p.config;
      },
      editor: p.editor,
      catalog: p.catalog,
      secrets,
    }),
    ...instanceControl(p, l),
    ...workingSetControl(p, l),
    ...importControl(p, l),
  };
}
