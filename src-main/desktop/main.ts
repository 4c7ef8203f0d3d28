// The Electron shell's lifecycle, and nothing else: one instance, the core started headless inside
// it, a tray, and a clean stop on quit. Every feature lives in its own module.
import { app } from 'electron';
import { startCore, type CoreHandle } from './core.js';
import { createTray, type TrayHandle } from './tray.js';

let core: CoreHandle | undefined;
let tray: TrayHandle | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('window-all-closed', () => {
    // A tray app keeps running with no window open.
  });
  app.on('before-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const stopping = core;
    core = undefined;
    tray?.stop();
    void stopping.stop().finally(() => app.quit());
  });
  void app.whenReady().then(async () => {
    core = await startCore();
    tray = createTray(core);
  });
}
