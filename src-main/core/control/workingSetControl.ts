// The working-set control methods: an agent's set and its history, promote and demote by hand, the
// sweep (run now, or previewed dry), and demotion paused.
import type { ControlHandlers } from './contract.js';
import type { ControlLookups, ControlParts } from './parts.js';

type Methods = Pick<ControlHandlers, 'workingSet' | 'history' | 'promote' | 'demote' | 'cycle' | 'sweepPreview' | 'setDemotionPaused'>;

export function workingSetControl(p: ControlParts, l: ControlLookups): Methods {
  const { agentId, resolve, members, agentList } = l;
  return {
    async workingSet(a) {
      return members(agentId(a.agent));
    },
    async history(a) {
      const h = await p.sets.history(agentId(a.agent));
      return a.limit ? h.slice(-a.limit) : h;
    },
    async promote(a) {
      const agent = agentId(a.agent);
      const e = resolve(a.tool);
      const changed = await p.sets.promote(agent, e.name, e.vendor, 'user');
      return { tool: e.name, changed, size: p.sets.listedCount(agent) };
    },
    async demote(a) {
      const agent = agentId(a.agent);
      const name = p.catalog.toolbox().resolve(a.tool)?.name ?? a.tool;
      if (!p.sets.members(agent).some((m) => m.tool === name) && !p.catalog.toolbox().get(name)) resolve(a.tool);
      const changed = await p.sets.demote(agent, name, 'user');
      return { tool: name, changed, size: p.sets.listedCount(agent) };
    },
    async cycle(a) {
      return p.sets.cycle(p.clock.now(), { dryRun: a.dryRun === true, ...(a.agents ? { agents: agentList(a.agents)! } : {}) });
    },
    async sweepPreview(a) {
      // Exactly the rule the sweep applies: the scheduled cycle, dry.
      return p.sets.sweepPreview(Date.parse(a.now), agentList(a.agents));
    },
    async setDemotionPaused(a) {
      p.sets.demotionPaused = a.paused;
      p.events.emit({ type: 'paused', proxy: p.runtime.proxyPaused, demotion: p.sets.demotionPaused });
      return { paused: p.sets.demotionPaused };
    },
  };
}
