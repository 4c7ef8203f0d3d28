// ControlApi over Electron IPC: one generic channel pair. `control:invoke` carries {method, args}
// and answers the same envelope as HTTP /control ({ok, result} or {ok: false, error: {code, message,
// data}}, control/envelope.ts) through the same `dispatch` as HTTP, so the method and its arguments are
// checked against control/contract.ts; the window reads errors from it. `control:event` pushes core
// events to the window, and `control:reopened` says when a remote instance's stream is back (the
// window reads again what it shows: events in the gap were lost).
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { ControlApi } from '../core/control/contract.js';
import { dispatch, type Envelope } from '../core/control/envelope.js';
import type { CoreEvents } from '../core/control/events.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL, REOPENED_CHANNEL } from '../shared/controlChannels.js';

export { EVENT_CHANNEL, INVOKE_CHANNEL, REOPENED_CHANNEL };

/** The part of IpcMain this uses, so a test can stand in for it. */
export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

export function registerControlIpc(
  ipc: IpcMainLike,
  control: ControlApi,
  events: CoreEvents,
  send: (channel: string, payload: unknown) => void,
  /** Console mode: how the remote instance's event stream stands, and when that changes. */
  stream?: { connected(): boolean; onChange(fn: () => void): () => void },
): () => void {
  ipc.handle(INVOKE_CHANNEL, async (_e: IpcMainInvokeEvent, msg: unknown): Promise<Envelope> => {
    const { method, args } = (typeof msg === 'object' && msg !== null ? msg : {}) as { method?: unknown; args?: unknown };
    return dispatch(control, method, args ?? {});
  });
  const off = events.on((e) => send(EVENT_CHANNEL, e));
  let up = stream?.connected() ?? true;
  const offStream = stream?.onChange(() => {
    const now = stream.connected();
    if (now && !up) send(REOPENED_CHANNEL, null);
    up = now;
  });
  return () => {
    off();
    offStream?.();
    ipc.removeHandler(INVOKE_CHANNEL);
  };
}
