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

/**
 * A read whose answer is kept unless one begun after it was kept already: answers over HTTP may come
 * back out of order, and an older one would show a state already gone. Once it settles, what is shown
 * is at least as new as its answer.
 */
function newest<T>(read: () => Promise<T>, keep: (value: T) => void, failed: (err: Error) => void): () => Promise<void> {
  let started = 0;
  let kept = 0;
  return async () => {
    const mine = ++started;
    try {
      const value = await read();
      if (mine > kept) {
        kept = mine;
        keep(value);
      }
    } catch (err) {
      if (mine > kept) {
        kept = mine;
        failed(err as Error);
      }
    }
  };
}

export const refreshStatus = newest(
  () => call('status', {}),
  (status) => {
    live.status = status;
    live.error = '';
  },
  (err) => (live.error = err.message),
);

export const refreshPending = newest(
  () => call('pendingApprovals', {}),
  (p) => {
    live.pending = p;
    if (p[0]) live.clockOffsetMs = p[0].now - Date.now();
  },
  // the status line reports a lost connection
  () => {},
);

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
