// The tray: an icon for healthy / degraded / paused / waiting approvals, and the menu trayMenu.ts
// describes, rebuilt on every core event.
import { Menu, Tray, clipboard, nativeImage, shell, type MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import type { DesktopCore } from './desktopCore.js';
import { openableUrl } from '../shared/openableUrl.js';
import type { StatusView } from '../core/control/api.js';
import {
  buildTrayMenu,
  trayIcon,
  trayIconFile,
  trayTitle,
  trayTooltip,
  type MenuItem,
  type TrayAction,
  type TrayIcon,
} from './trayMenu.js';

export type TrayDeps = {
  core: DesktopCore;
  resourcesDir: string;
  openWindow: (hash?: string) => void;
  /** Console mode: back to the core this computer hosts (the app restarts). */
  useLocal: () => void;
  quit: () => void;
};

function toElectron(items: MenuItem[], run: (a: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((i): MenuItemConstructorOptions => {
    if (i.type === 'separator') return { type: 'separator' };
    if (i.type === 'submenu') return { label: i.label, submenu: toElectron(i.items, run) };
    if (i.type === 'checkbox') return { type: 'checkbox', label: i.label, checked: i.checked, click: () => run(i.action) };
    return { label: i.label, enabled: i.enabled, ...(i.action ? { click: () => run(i.action!) } : {}) };
  });
}

export function startTray(d: TrayDeps): () => void {
  // Coloured marks that read on light and dark panels; on macOS template images (the file names end
  // in "Template", and the @2x files are picked up for dense screens) drawn in the menu bar's colours.
  const kinds: TrayIcon[] = ['healthy', 'degraded', 'paused', 'attention'];
  const icons = Object.fromEntries(
    kinds.map((k) => [k, nativeImage.createFromPath(join(d.resourcesDir, trayIconFile(k, process.platform)))]),
  ) as Record<TrayIcon, ReturnType<typeof nativeImage.createFromPath>>;
  if (process.platform === 'darwin') Object.values(icons).forEach((i) => i.setTemplateImage(true));
  const tray = new Tray(icons.degraded);
  let status: StatusView | undefined;

  const run = async (a: TrayAction) => {
    if (a.kind === 'toggleProxy') await d.core.control.setProxyPaused({ paused: !status?.proxyPaused });
    else if (a.kind === 'toggleDemotion') await d.core.control.setDemotionPaused({ paused: !status?.demotionPaused });
    else if (a.kind === 'copyUrl') clipboard.writeText(a.url);
    else if (a.kind === 'openAgent') d.openWindow(`#/agents/${encodeURIComponent(a.agent)}`);
    else if (a.kind === 'openInbox') d.openWindow('#/inbox');
    else if (a.kind === 'signIn') {
      // The link lands on this app's own /oauth/callback; the system browser holds the user's sessions.
      const r = await d.core.control.signIn({ vendor: a.vendor }).catch(() => undefined);
      // Only https: (or http: to loopback) reaches the OS; anything else shows in the window's Upstreams row.
      const link = r?.status === 'waiting' ? openableUrl(r.url) : undefined;
      if (link?.ok) await shell.openExternal(link.url);
      else d.openWindow('#/upstreams');
    } else if (a.kind === 'settings') d.openWindow();
    else if (a.kind === 'remoteSignIn') d.core.remote?.signIn();
    else if (a.kind === 'useLocal') d.useLocal();
    else d.quit();
  };
  const render = async () => {
    // A remote that cannot be reached shows no stale status: the console says it is reconnecting.
    status = await d.core.control.status({}).catch(() => (d.core.remote ? undefined : status));
    const r = d.core.remote;
    const remote = r && { url: r.url, connected: r.connected(), note: r.note() };
    tray.setImage(icons[remote && !remote.connected ? 'degraded' : trayIcon(status)]);
    tray.setToolTip(trayTooltip(status, remote));
    if (process.platform === 'darwin') tray.setTitle(trayTitle(status));
    tray.setContextMenu(Menu.buildFromTemplate(toElectron(buildTrayMenu(status, remote), (a) => void run(a))));
  };
  void render();
  const off = d.core.events.on(() => void render());
  const offRemote = d.core.remote?.onChange(() => void render());
  return () => {
    off();
    offRemote?.();
    tray.destroy();
  };
}
