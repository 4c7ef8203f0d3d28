// The running instance's control methods: its status, the proxy paused, and the window's one-time
// links and sessions.
import { maskUrlsIn } from '../redact.js';
import { currentActor } from '../actor.js';
import type { ControlHandlers } from './contract.js';
import type { ControlLookups, ControlParts } from './parts.js';

type Methods = Pick<ControlHandlers, 'status' | 'setProxyPaused' | 'uiLink' | 'uiRevokeAll'>;

export function instanceControl(p: ControlParts, l: ControlLookups): Methods {
  return {
    async status() {
      return {
        url: p.baseUrl(),
        toolboxSize: p.catalog.toolbox().size,
        upstreams: p.catalog.statuses().map((u) => ({ ...u, lastError: u.lastError && maskUrlsIn(u.lastError) })),
        agents: p.config.agents.map((a) => l.agentView(a.id)),
        demotionPaused: p.sets.demotionPaused,
        proxyPaused: p.runtime.proxyPaused,
        pendingApprovals: p.gate.pending.list().length,
        restartNeeded: p.runtime.restartNeeded,
        editable: p.editor.editable,
        configVersion: p.editor.version ?? null,
        ...(p.editor.versionInForce ? { configInForce: p.editor.versionInForce } : {}),
        ...(p.editor.problem ? { configProblem: p.editor.problem } : {}),
        demo: p.runtime.demo ?? null,
        ...(p.vectors ? { semanticSearch: p.vectors.status() } : {}),
        ...(currentActor() ? { operator: currentActor() } : {}),
      };
    },
    async setProxyPaused(a) {
      p.runtime.proxyPaused = a.paused;
      p.events.emit({ type: 'paused', proxy: p.runtime.proxyPaused, demotion: p.sets.demotionPaused });
      return { paused: p.runtime.proxyPaused };
    },
    async uiLink() {
      return { url: `${l.publicBase()}/ui?token=${p.uiToken()}` };
    },
    async uiRevokeAll() {
      return { ended: p.uiRevokeAll?.() ?? 0 };
    },
  };
}
