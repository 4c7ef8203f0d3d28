// Desktop notifications: demotions (one per agent per sweep), upstreams going down, refusing access or
// coming back, and calls waiting for approval; each kind mutable in General settings. A click opens
// the window where the notice points; approval buttons show only where the platform supports them.
import { Notification } from 'electron';
import type { DesktopCore } from './desktopCore.js';
import { editablePrefs, type PrefsStore } from './prefs.js';
import { approvalNotice, batcher, notices } from './notices.js';

/** A sweep emits its demotions together; this long a pause ends the batch. */
const NOTICE_BATCH_MS = 800;

export function startNotifier(core: DesktopCore, prefs: PrefsStore, openWindow: (hash: string) => void): () => void {
  const name = (id: string) => core.agentName(id);
  /** Upstream statuses as of the last batch, so "back" is told only after "down". */
  const seen = new Map<string, string>();
  const push = batcher(NOTICE_BATCH_MS, (batch) => {
    const shown = notices(batch, editablePrefs(prefs), {
      agentName: name,
      previousStatus: (vendor) => seen.get(vendor),
      revokedReason: (tool) => (core.upstreamRefused(tool.split('__')[0] ?? '') ? 'refused' : 'removed'),
    });
    for (const e of batch) if (e.type === 'upstreamStatus') seen.set(e.vendor, e.status);
    if (!Notification.isSupported()) return;
    for (const n of shown) {
      const note = new Notification({ title: n.title, body: n.body });
      note.on('click', () => openWindow(n.open));
      note.show();
    }
  });
  const offEvents = core.events.on(push);
  const offApprovals = core.events.on((e) => {
    if (e.type !== 'approvalPending' || !Notification.isSupported()) return;
    const n = approvalNotice(e.call, editablePrefs(prefs), name, process.platform === 'darwin');
    if (!n) return;
    const note = new Notification({
      title: n.title,
      body: n.body,
      actions: n.actions.map((a) => ({ type: 'button' as const, text: a.text })),
    });
    note.on('action', (_ev, index) => {
      const answer = n.actions[index]?.answer;
      if (answer)
        void core.control
          .approve({
            agent: e.call.agent,
            tool: e.call.tool,
            id: e.call.id,
            ...(answer === 'once' ? { once: true } : answer === 'deny' ? { deny: true } : {}),
          })
          .catch(() => {});
    });
    note.on('click', () => openWindow(n.open));
    note.show();
  });
  return () => {
    offEvents();
    offApprovals();
  };
}
