// The renderer's only door to the main process: the ControlApi as `window.workingSet`, over one
// generic channel pair. `invoke` answers the control envelope ({ok, result} or {ok: false, error});
// the main process checks the method and its arguments against the contract (desktop/ipc.ts).
// Nothing else of Electron or Node reaches the page.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ControlBridge, CoreEvent, Envelope } from '../core/control/contract.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/controlChannels.js';

const bridge: ControlBridge = {
  invoke: (method, args) => ipcRenderer.invoke(INVOKE_CHANNEL, { method, args }) as Promise<Envelope>,
  onEvent: (listener, opened) => {
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload as CoreEvent);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    // Listening from now on: the channel is not lost while the page lives.
    opened?.();
    return () => ipcRenderer.off(EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('workingSet', bridge);
