// Live state shared by every screen: the status, and a tick that moves on every core event so that
// screens re-read what they show.
import { call, onEvent } from './bridge';
import type { StatusView } from '../../../src-main/core/control/api';
import type { CoreEvent } from '../../../src-main/core/control/events';

export const live = $state({ status: undefined as StatusView | undefined, tick: 0, lastEvent: undefined as CoreEvent | undefined, error: '' });

export async function refreshStatus(): Promise<void> {
  try {
    live.status = await call('status', {});
    live.error = '';
  } catch (err) {
    live.error = (err as Error).message;
  }
}

export function startLive(): () => void {
  void refreshStatus();
  return onEvent((e) => {
    live.lastEvent = e;
    live.tick++;
    void refreshStatus();
  });
}
