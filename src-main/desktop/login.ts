// Start at login, following the General setting.
import { app } from 'electron';
import type { App } from '../core/app.js';

export function startLoginItem(core: App): () => void {
  const apply = () => app.setLoginItemSettings({ openAtLogin: core.config.desktop.startAtLogin });
  apply();
  return core.events.on((e) => {
    if (e.type === 'settingsChanged') apply();
  });
}
