// First start after the move to the desktop store: older versions kept the notification mutes and
// start-at-login under `desktop` in the user's JSON config. They are copied into the store once and
// taken out of the file, so the config holds only what the headless core reads and a later hand edit
// of a stale `desktop` block cannot fight the window's settings. No electron import here.
import type { LoadedConfig } from '../core/config/load.js';
import { writeJsonAtLinkTarget } from '../core/store/atomicJson.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { EDITABLE_KEYS, setEditablePrefs, type PrefsStore } from './prefs.js';

export type MigrationResult = { loaded: LoadedConfig; moved: string[] };

export async function migrateConfigPrefs(store: PrefsStore, loaded: LoadedConfig, log?: Logger): Promise<MigrationResult> {
  if (store.get('migratedFromConfig') === true) return { loaded, moved: [] };
  const old = loaded.raw.desktop;
  const fields = typeof old === 'object' && old !== null && !Array.isArray(old) ? (old as Record<string, unknown>) : {};
  const moved = EDITABLE_KEYS.filter((k) => typeof fields[k] === 'boolean');
  setEditablePrefs(store, fields);
  // Marked before the file is touched: if the write fails, the copy in the store still wins next time.
  store.set('migratedFromConfig', true);
  if (!loaded.exists || !('desktop' in loaded.raw)) return { loaded, moved };
  const { desktop: _moved, ...rest } = loaded.raw;
  try {
    await writeJsonAtLinkTarget(loaded.path, rest);
  } catch (err) {
    log?.warn(
      `The desktop preferences were copied to the app's store, but ${loaded.path} could not be rewritten without its "desktop" block (${errorMessage(err)}); the block is ignored from now on.`,
    );
    return { loaded, moved };
  }
  return { loaded: { ...loaded, raw: rest }, moved };
}
