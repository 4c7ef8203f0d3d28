// The Electron shell's lifecycle, and nothing else: one instance, the desktop preferences, the core (or,
// in console mode, a remote instance), the window, the tray, notifications and the login item, each
// started here and stopped on quit.
import { app, dialog, ipcMain, shell } from 'electron';
import { join } from 'node:path';
import { startEmbeddedCore } from './embeddedCore.js';
import { startRemoteCore } from './remoteCore.js';
import { pref } from './prefs.js';
import { instanceUrl } from '../core/operators/logins.js';
import { loadConfig } from '../core/config/load.js';
import { resolveConfigPath } from '../core/config/paths.js';
import { systemClock } from '../core/clock.js';
import { safeStorageCipher } from './secretCipher.js';
import { openPrefsStore } from './prefsStore.js';
import { migrateConfigPrefs } from './prefsMigration.js';
import { withDesktopPrefs } from './settingsBridge.js';
import { stderrLogger } from '../core/log.js';
import { startTray } from './tray.js';
import { windowOpener } from './window.js';
import { startNotifier } from './notifier.js';
import { startLoginItem } from './login.js';
import { registerControlIpc } from './ipc.js';

const stops: Array<() => void | Promise<void>> = [];

async function initialize(): Promise<void> {
  const root = app.getAppPath();
  const rendererDir = join(root, 'out', 'renderer');
  const prefs = openPrefsStore();
  const remote = pref(prefs, 'remote');
  // Console mode shows a remote instance; else the core runs here. Packaged, the model sits beside
  // app.asar (a native runtime cannot read inside the archive).
  const core = remote
    ? await startConsole(remote)
    : await startEmbeddedCore(
        rendererDir,
        async (loaded) => (await migrateConfigPrefs(prefs, loaded, stderrLogger)).loaded,
        await safeStorageCipher(),
        app.isPackaged ? process.resourcesPath : undefined,
      );
  // Choosing another instance (or this computer's) in General restarts the app on it.
  stops.push(
    prefs.onDidChange('remote', () => {
      app.relaunch();
      app.quit();
    }),
  );
  const win = windowOpener({ rendererDir, preloadPath: join(root, 'out', 'preload', 'index.cjs'), prefs });
  stops.push(() => core.stop());
  stops.push(
    registerControlIpc(
      ipcMain,
      withDesktopPrefs(core.control, prefs),
      core.events,
      (channel, payload) => win.webContents()?.send(channel, payload),
      core.remote,
    ),
  );
  stops.push(
    startTray({
      core,
      resourcesDir: join(root, 'resources'),
      openWindow: win.open,
      useLocal: () => prefs.set('remote', ''),
      quit: () => app.quit(),
    }),
  );
  stops.push(startNotifier(core, prefs, win.open));
  stops.push(startLoginItem(prefs));
  app.on('second-instance', () => win.open());
}

/** Console mode: the operator's sign-ins are kept where the CLI keeps them (the local config's state folder). */
async function startConsole(remote: string) {
  const url = instanceUrl(remote);
  const { config } = await loadConfig(resolveConfigPath(undefined));
  return startRemoteCore({ url, stateDir: config.stateDir, openLink: (link) => void shell.openExternal(link), clock: systemClock });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => {});
  app.on('before-quit', (event) => {
    if (stops.length === 0) return;
    event.preventDefault();
    const all = stops.splice(0).reverse();
    void (async () => {
      for (const stop of all) {
        try {
          await stop();
        } catch {
          // every stop runs even when one throws
        }
      }
      app.quit();
    })();
  });
  void app.whenReady().then(() =>
    initialize().catch((err: Error) => {
      // A bad config (or a taken port) is the user's to fix: say what and where, then quit.
      dialog.showErrorBox('Working Set could not start', err.message);
      app.quit();
    }),
  );
}
