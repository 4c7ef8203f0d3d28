// The desktop preferences on disk: electron-store's JSON file in the app's user-data folder
// (preferences.json), apart from the user's config and from the core's state folder.
import ElectronStore from 'electron-store';
import { PREFS_STORE_OPTIONS, type DesktopPrefs, type PrefsStore } from './prefs.js';

export const PREFS_FILE_NAME = 'preferences';

export function openPrefsStore(): PrefsStore {
  return new ElectronStore<DesktopPrefs>({ name: PREFS_FILE_NAME, ...PREFS_STORE_OPTIONS });
}
