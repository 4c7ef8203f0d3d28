// The renderer's only door to the main process. It exposes the app version for now; the ControlApi
// (one generic channel pair) arrives with the settings window.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('workingSet', { version: '0.1.0' });
