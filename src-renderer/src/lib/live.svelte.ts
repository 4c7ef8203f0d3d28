// Live state shared by every screen: the status, the approvals inbox, and a tick that moves on every
// core event so that screens re-read what they show. One source for counts: every screen reads them here.
import { call, onEvent } from './bridge';
import type { CoreEvent, PendingView, StatusView } from '../../../src-main/core/control/contract';

export const live = $state({
  status: undefined as StatusView | undefined,
  pending: [] as PendingView[],
  /** The core's clock minus ours, so "waited" and "left" do not depend on this machine's clock. */
  clockOffsetMs: 0,
  tick: 0,
  lastEvent: undefined as CoreEvent | undefined,
  error: '',
});

export async function refreshStatus(): Promise<void> {
  try {
    live.status = await call('status', {});
    live.error = '';
  } catch (err) {
    live.error = (err as Error).message;
  }
}

export async function refreshPending(): Promise<void> {
  try {
    const p = await call('pendingApprovals', {});
    live.pending = p;
    if (p[0]) live.clockOffsetMs = p[0].now - Date.now();
  } catch {
    // the status line reports a lost connection
  }
}

export function pendingFor(agent: string): PendingView[] {
  return live.pending.filter((p) => p.agent === agent);
}

export function startLive(): () => void {
  void refreshStatus();
  void refreshPending();
  return onEvent((e) => {
    live.lastEvent = e;
    live.tick++;
    if (e.type === 'approvalPending' || e.type === 'approvalDecided') void refreshPending();
    else void refreshStatus();
  });
}
