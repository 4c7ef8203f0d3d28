// The desktop preferences on disk: electron-store's JSON file in the app's user-data folder
// (preferences.json), apart from the user's config and from the core's state folder.
import ElectronStore from 'electron-store';
import { PREFS_DEFAULTS, type DesktopPrefs, type PrefsStore } from './prefs.js';

export function openPrefsStore(): PrefsStore {
  // clearInvalidConfig: a preferences file broken by hand starts over from the defaults rather than
  // keeping the app from starting; nothing in it is worth more than a working tray.
  return new ElectronStore<DesktopPrefs>({ name: 'preferences', defaults: PREFS_DEFAULTS, clearInvalidConfig: true });
}
