// Desktop notifications: demotions (one per agent per sweep) and upstreams going down, each mutable
// in General settings; a click opens the window where the notice points.
import { Notification } from 'electron';
import type { App } from '../core/app.js';
import { batcher, notices } from './notices.js';

/** A sweep emits its demotions together; this long a pause ends the batch. */
const NOTICE_BATCH_MS = 800;

export function startNotifier(core: App, openWindow: (hash: string) => void): () => void {
  const name = (id: string) => core.config.agents.find((a) => a.id === id)?.name ?? id;
  const push = batcher(NOTICE_BATCH_MS, (batch) => {
    if (!Notification.isSupported()) return;
    for (const n of notices(batch, core.config.desktop, name)) {
      const shown = new Notification({ title: n.title, body: n.body });
      shown.on('click', () => openWindow(n.open));
      shown.show();
    }
  });
  const offEvents = core.events.on(push);
  const offApprovals = core.events.on((e) => {
    if (e.type !== 'approvalPending' || !Notification.isSupported()) return;
    const n = new Notification({
      title: `${name(e.call.agent)} wants to run ${e.call.tool}`,
      body: e.call.withdrawn ? 'Its definition changed since you allowed it.' : 'It is not read-only and has not been allowed yet.',
      actions: [{ type: 'button', text: 'Allow' }, { type: 'button', text: 'Deny' }],
    });
    n.on('action', (_ev, index) => void core.control.approve({ agent: e.call.agent, tool: e.call.tool, deny: index === 1 }));
    n.on('click', () => openWindow(`#/agents/${encodeURIComponent(e.call.agent)}`));
    n.show();
  });
  return () => {
    offEvents();
    offApprovals();
  };
}
