// The ControlApi the desktop window talks to: the core's (or, in console mode, the remote's), except
// that the General screen's notification and start-at-login switches and the console's URL read and
// write the desktop store instead of the user's config. The window and its IPC contract stay the same as headless. No electron import here.
import type { ControlApi, SettingsView } from '../core/control/api.js';
import { editablePrefs, setEditablePrefs, type PrefsStore } from './prefs.js';
import { instanceUrl } from '../core/operators/logins.js';

export function withDesktopPrefs(control: ControlApi, store: PrefsStore): ControlApi {
  const view = (v: SettingsView): SettingsView => ({ ...v, desktop: editablePrefs(store) });
  return {
    ...control,
    settings: async (a) => view(await control.settings(a)),
    updateSettings: async (a) => {
      const { desktop, ...rest } = a ?? {};
      // The console's URL is checked before anything is saved: a refused one saves nothing.
      if (typeof desktop?.remote === 'string' && desktop.remote.trim()) instanceUrl(desktop.remote.trim());
      // The core checks and saves its own fields first: a refused port saves no switch either. A
      // switch alone does not touch the core (no config write, no recompute of every agent).
      const saved = Object.keys(rest).length ? await control.updateSettings(rest) : await control.settings({});
      if (desktop && typeof desktop === 'object') setEditablePrefs(store, desktop, instanceUrl);
      return view(saved);
    },
  };
}
