// The renderer's only door to the main process: the ControlApi as `window.workingSet`, over one
// generic channel pair. `invoke` answers the control envelope ({ok, result} or {ok: false, error});
// the main process checks the method and its arguments against the contract (desktop/ipc.ts).
// Nothing else of Electron or Node reaches the page.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ControlBridge, CoreEvent, Envelope } from '../core/control/contract.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL, REOPENED_CHANNEL } from '../shared/controlChannels.js';

const bridge: ControlBridge = {
  invoke: (method, args) => ipcRenderer.invoke(INVOKE_CHANNEL, { method, args }) as Promise<Envelope>,
  onEvent: (listener, opened) => {
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload as CoreEvent);
    const reopened = () => opened?.();
    ipcRenderer.on(EVENT_CHANNEL, handler);
    // Listening from now on; a remote instance's stream (console mode) may drop and come back, and
    // then main says so.
    ipcRenderer.on(REOPENED_CHANNEL, reopened);
    opened?.();
    return () => {
      ipcRenderer.off(EVENT_CHANNEL, handler);
      ipcRenderer.off(REOPENED_CHANNEL, reopened);
    };
  },
};

contextBridge.exposeInMainWorld('workingSet', bridge);
