// Preferences that belong to the desktop app alone: which notifications show, start at login, where the
// window was and which screen it showed. They live in the app's own store (electron-store in the
// Electron main), never in the user's JSON config, which stays the one source for upstreams, agents and
// rules that `mws serve` reads too. Code here takes a `Conf<DesktopPrefs>` so tests use plain `conf`:
// electron-store is a Conf that only the Electron main can construct. No electron import here.
import type Conf from 'conf';

/** The window's last size and place, in screen coordinates (the unmaximised bounds when maximised). */
export type WindowPlace = { x: number; y: number; width: number; height: number; maximized: boolean };

// A `type`, not an `interface`: Conf's type parameter must be an index-compatible record.
export type DesktopPrefs = {
  notifyDemotions: boolean;
  notifyUpstreams: boolean;
  notifyApprovals: boolean;
  startAtLogin: boolean;
  /** Null until the window was first closed or moved. */
  window: WindowPlace | null;
  /** The window's route (`#/agents/default`, …) when it was last left; '' for the first screen. */
  lastScreen: string;
  /** Set once the fields that older versions kept in the JSON config were moved here. */
  migratedFromConfig: boolean;
};

export type NotificationPrefs = Pick<DesktopPrefs, 'notifyDemotions' | 'notifyUpstreams' | 'notifyApprovals'>;

/** The part the settings window edits: what older versions showed under `desktop` in the config. */
export type EditablePrefs = NotificationPrefs & Pick<DesktopPrefs, 'startAtLogin'>;
export const EDITABLE_KEYS = ['notifyDemotions', 'notifyUpstreams', 'notifyApprovals', 'startAtLogin'] as const satisfies ReadonlyArray<keyof EditablePrefs>;

export const PREFS_DEFAULTS: DesktopPrefs = {
  notifyDemotions: true,
  notifyUpstreams: true,
  notifyApprovals: true,
  startAtLogin: false,
  window: null,
  lastScreen: '',
  migratedFromConfig: false,
};

export type PrefsStore = Conf<DesktopPrefs>;

/**
 * The store's options, shared by electron-store in the app and plain conf in the tests. A preferences
 * file broken by hand starts over from the defaults rather than keeping the app from starting: nothing
 * in it is worth more than a working tray.
 */
export const PREFS_STORE_OPTIONS = { defaults: PREFS_DEFAULTS, clearInvalidConfig: true } as const;

/** A hand-edited store may hold anything: a value of the wrong type reads as its default. */
function flag(store: PrefsStore, key: keyof EditablePrefs): boolean {
  const v: unknown = store.get(key);
  return typeof v === 'boolean' ? v : PREFS_DEFAULTS[key];
}

export function editablePrefs(store: PrefsStore): EditablePrefs {
  return { notifyDemotions: flag(store, 'notifyDemotions'), notifyUpstreams: flag(store, 'notifyUpstreams'), notifyApprovals: flag(store, 'notifyApprovals'), startAtLogin: flag(store, 'startAtLogin') };
}

/** Sets the booleans given, ignoring anything else: the window sends back the whole section. */
export function setEditablePrefs(store: PrefsStore, next: Partial<Record<keyof EditablePrefs, unknown>>): void {
  for (const key of EDITABLE_KEYS) {
    const v = next[key];
    if (typeof v === 'boolean' && store.get(key) !== v) store.set(key, v);
  }
}

export function windowPlace(store: PrefsStore): WindowPlace | null {
  const w: unknown = store.get('window');
  if (typeof w !== 'object' || w === null) return null;
  const { x, y, width, height, maximized } = w as Record<string, unknown>;
  if (![x, y, width, height].every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  return { x: x as number, y: y as number, width: width as number, height: height as number, maximized: maximized === true };
}

export function lastScreen(store: PrefsStore): string {
  const s: unknown = store.get('lastScreen');
  return typeof s === 'string' && isScreenHash(s) ? s : '';
}

/** The window's own routes only (`#/…`, no quotes or markup): the value is put back into the page. */
export function isScreenHash(s: string): boolean {
  return /^#\/[A-Za-z0-9/_%.-]{0,200}$/.test(s);
}
