// The settings window: the Svelte renderer, isolated (no Node, sandboxed), reaching the core only
// through the preload's ControlApi.
import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';

export type WindowDeps = { rendererDir: string; preloadPath: string };

export function windowOpener(d: WindowDeps): { open: (hash?: string) => void; webContents: () => Electron.WebContents | undefined } {
  let win: BrowserWindow | undefined;
  const open = (hash = '') => {
    if (win && !win.isDestroyed()) {
      if (hash) void win.webContents.executeJavaScript(`location.hash = ${JSON.stringify(hash)}`);
      win.show();
      win.focus();
      return;
    }
    win = new BrowserWindow({
      width: 1180,
      height: 820,
      title: 'Working Set',
      show: false,
      webPreferences: { preload: d.preloadPath, contextIsolation: true, nodeIntegration: false, sandbox: true },
    });
    // Links leave the app for the browser; the window itself never navigates away.
    win.webContents.setWindowOpenHandler(({ url }) => {
      void shell.openExternal(url);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (e) => e.preventDefault());
    void win.loadFile(join(d.rendererDir, 'index.html'), { hash: hash.replace(/^#/, '') });
    win.once('ready-to-show', () => win?.show());
  };
  return { open, webContents: () => (win && !win.isDestroyed() ? win.webContents : undefined) };
}
