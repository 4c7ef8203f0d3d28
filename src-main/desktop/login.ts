// Start at login, following the desktop preference.
import { app } from 'electron';
import { editablePrefs, type PrefsStore } from './prefs.js';

export function startLoginItem(prefs: PrefsStore): () => void {
  const apply = () => app.setLoginItemSettings({ openAtLogin: editablePrefs(prefs).startAtLogin });
  apply();
  return prefs.onDidChange('startAtLogin', apply);
}
