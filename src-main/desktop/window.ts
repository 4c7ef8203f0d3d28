// The settings window: the Svelte renderer, isolated (no Node, sandboxed), reaching the core only
// through the preload's ControlApi. It opens where and as large as it was left, on the screen it last
// showed, both kept in the desktop preferences.
import { BrowserWindow, screen, shell } from 'electron';
import { join } from 'node:path';
import { openableUrl } from '../shared/openableUrl.js';
import { isScreenHash, lastScreen, windowPlace, type PrefsStore } from './prefs.js';
import { MIN_SIZE, restoredPlace, screenOf } from './windowPlace.js';

export type WindowDeps = { rendererDir: string; preloadPath: string; prefs: PrefsStore };

export function windowOpener(d: WindowDeps): { open: (hash?: string) => void; webContents: () => Electron.WebContents | undefined } {
  let win: BrowserWindow | undefined;
  const open = (hash = '') => {
    if (win && !win.isDestroyed()) {
      if (hash) void win.webContents.executeJavaScript(`location.hash = ${JSON.stringify(hash)}`);
      win.show();
      win.focus();
      return;
    }
    const place = restoredPlace(
      windowPlace(d.prefs),
      screen.getAllDisplays().map((s) => s.workArea),
    );
    const w = new BrowserWindow({
      ...place.bounds,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      title: 'Working Set',
      show: false,
      webPreferences: { preload: d.preloadPath, contextIsolation: true, nodeIntegration: false, sandbox: true },
    });
    win = w;
    // Links leave the app for the browser; the window itself never navigates away.
    // Only https: (or http: to loopback) reaches the OS: a file: or .desktop link from upstream data never does.
    w.webContents.setWindowOpenHandler(({ url }) => {
      const link = openableUrl(url);
      if (link.ok) void shell.openExternal(link.url);
      return { action: 'deny' };
    });
    w.webContents.on('will-navigate', (e) => e.preventDefault());
    // The route is remembered as the user moves, so a crash or a quit from the tray keeps it too.
    w.webContents.on('did-navigate-in-page', (_e, url) => {
      const s = screenOf(url);
      if (isScreenHash(s)) d.prefs.set('lastScreen', s);
    });
    // The place is saved when the window closes: once, not on every pixel of a drag.
    w.on('close', () => {
      const b = w.getNormalBounds();
      d.prefs.set('window', { x: b.x, y: b.y, width: b.width, height: b.height, maximized: w.isMaximized() });
    });
    const route = hash || lastScreen(d.prefs);
    void w.loadFile(join(d.rendererDir, 'index.html'), { hash: route.replace(/^#/, '') });
    w.once('ready-to-show', () => {
      if (place.maximized) w.maximize();
      w.show();
    });
  };
  return { open, webContents: () => (win && !win.isDestroyed() ? win.webContents : undefined) };
}
