// The renderer's only door to the main process: the ControlApi as `window.workingSet`, over one
// generic channel pair. `invoke` answers the control envelope ({ok, result} or {ok: false, error}).
// Nothing else of Electron or Node reaches the page.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

contextBridge.exposeInMainWorld('workingSet', {
  invoke: (method: string, args: unknown) => ipcRenderer.invoke('control:invoke', { method, args }),
  onEvent: (listener: (e: unknown) => void) => {
    const handler = (_e: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on('control:event', handler);
    return () => ipcRenderer.off('control:event', handler);
  },
});
