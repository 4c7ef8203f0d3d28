// ControlApi over Electron IPC: one generic channel pair. `control:invoke` carries {method, args}
// and answers the result; `control:event` pushes core events to the window. Errors cross as
// "code: sentence" so the window can tell them apart.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { MwsError } from '../core/errors.js';
import { isControlMethod, type ControlApi } from '../core/control/api.js';
import type { CoreEvents } from '../core/control/events.js';

export const INVOKE_CHANNEL = 'control:invoke';
export const EVENT_CHANNEL = 'control:event';

/** The part of IpcMain this uses, so a test can stand in for it. */
export type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

export function registerControlIpc(ipc: IpcMainLike, control: ControlApi, events: CoreEvents, send: (channel: string, payload: unknown) => void): () => void {
  ipc.handle(INVOKE_CHANNEL, async (_e: IpcMainInvokeEvent, msg: unknown) => {
    const { method, args } = (msg ?? {}) as { method?: unknown; args?: unknown };
    if (typeof method !== 'string' || !isControlMethod(method)) throw new Error(`usage: No control method "${String(method)}".`);
    try {
      return await (control[method] as (a: unknown) => Promise<unknown>)(args ?? {});
    } catch (err) {
      if (err instanceof MwsError) throw new Error(`${err.code}: ${err.message}`);
      throw err;
    }
  });
  const off = events.on((e) => send(EVENT_CHANNEL, e));
  return () => {
    off();
    ipc.removeHandler(INVOKE_CHANNEL);
  };
}
