// Live state shared by every screen: the status, the approvals inbox, and a tick that moves on every
// core event so that screens re-read what they show. One source for counts: every screen reads them here.
import { call, onEvent } from './bridge';
import { newest } from './newest';
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

const keepStatus = newest<StatusView>((status) => {
  live.status = status;
  live.error = '';
});
export const refreshStatus = () => keepStatus(call('status', {}), (err) => (live.error = err.message));

const keepPending = newest<PendingView[]>((p) => {
  live.pending = p;
  if (p[0]) live.clockOffsetMs = p[0].now - Date.now();
});
// a failure is not shown here: the status line reports a lost connection
export const refreshPending = () => keepPending(call('pendingApprovals', {}), () => {});

export function pendingFor(agent: string): PendingView[] {
  return live.pending.filter((p) => p.agent === agent);
}

export function startLive(): () => void {
  const readAll = () => {
    void refreshStatus();
    void refreshPending();
  };
  readAll();
  let opens = 0;
  return onEvent(
    (e) => {
      live.lastEvent = e;
      live.tick++;
      if (e.type === 'approvalPending' || e.type === 'approvalDecided') void refreshPending();
      else void refreshStatus();
    },
    // Events sent before the stream opened were missed: the status and the inbox are read again. After
    // a lost stream, screens re-read too (the tick); at the first opening they have only just read.
    () => {
      readAll();
      if (opens++ > 0) live.tick++;
    },
  );
}
