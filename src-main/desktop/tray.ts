// The tray icon and its menu: status, copy the endpoint URL, quit.
import { Menu, Tray, app, clipboard, nativeImage } from 'electron';
import { join } from 'node:path';
import type { CoreHandle } from './core.js';

export type TrayHandle = { stop: () => void };

export function createTray(core: CoreHandle): TrayHandle {
  const icon = nativeImage.createFromPath(join(app.getAppPath(), 'resources', 'tray-healthy.png'));
  if (process.platform === 'darwin') icon.setTemplateImage(true);
  const tray = new Tray(icon);
  tray.setToolTip(`Working Set — ${core.url}`);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: `Listening on ${core.url}`, enabled: false },
      { label: `Upstreams: ${core.vendors.join(', ') || 'none'}`, enabled: false },
      { type: 'separator' },
      { label: 'Copy endpoint URL', click: () => clipboard.writeText(core.url) },
      { type: 'separator' },
      { label: 'Quit Working Set', role: 'quit' },
    ]),
  );
  return { stop: () => tray.destroy() };
}
