// Preferences that belong to the desktop app alone: which notifications show, start at login, where the
// window was and which screen it showed. They live in the app's own store (electron-store in the
// Electron main), never in the user's JSON config, which stays the one source for upstreams, agents and
// rules that `mws serve` reads too. Code here takes a `Conf<DesktopPrefs>` so tests use plain `conf`:
// electron-store is a Conf that only the Electron main can construct. No electron import here.
// One zod schema declares them: the type, the defaults, and the JSON Schema conf checks every read and
// write against (its `schema` option).
import type Conf from 'conf';
import type { Schema } from 'conf';
import { z } from 'zod';

/** The window's own routes only (`#/…`, no quotes or markup): the value is put back into the page. */
const SCREEN_HASH = /^#\/[A-Za-z0-9/_%.-]{0,200}$/;

/** The window's last size and place, in screen coordinates (the unmaximised bounds when maximised). */
const windowPlaceSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  maximized: z.boolean().optional(),
});

export const prefsSchema = z.object({
  notifyDemotions: z.boolean().default(true).meta({ description: 'A notice per agent per sweep, naming the tools that left and why.' }),
  notifyUpstreams: z.boolean().default(true).meta({ description: 'A notice when an upstream goes down, refuses access or comes back.' }),
  notifyApprovals: z.boolean().default(true).meta({ description: 'A notice per call waiting for approval.' }),
  startAtLogin: z.boolean().default(false).meta({ description: 'The login item, applied at once when it changes.' }),
  remote: z
    .string()
    .max(500)
    .default('')
    .meta({ description: "Console mode: the URL of a remote Working Set the app shows instead of hosting one; '' for this computer's." }),
  window: windowPlaceSchema.nullable().default(null).meta({ description: 'Null until the window was first closed or moved.' }),
  lastScreen: z
    .union([z.literal(''), z.string().regex(SCREEN_HASH)])
    .default('')
    .meta({ description: "The window's route (`#/agents/default`, …) when it was last left; '' for the first screen." }),
  migratedFromConfig: z
    .boolean()
    .default(false)
    .meta({ description: 'Set once the fields that older versions kept in the JSON config were moved here.' }),
});

export type WindowPlace = z.output<typeof windowPlaceSchema>;
// A `type`, not an `interface`: Conf's type parameter must be an index-compatible record.
export type DesktopPrefs = z.output<typeof prefsSchema>;

export type NotificationPrefs = Pick<DesktopPrefs, 'notifyDemotions' | 'notifyUpstreams' | 'notifyApprovals'>;

/** The part the settings window edits: what older versions showed under `desktop` in the config. */
export type EditablePrefs = NotificationPrefs & Pick<DesktopPrefs, 'startAtLogin' | 'remote'>;
const SWITCHES = ['notifyDemotions', 'notifyUpstreams', 'notifyApprovals', 'startAtLogin'] as const satisfies ReadonlyArray<
  keyof EditablePrefs
>;
export const EDITABLE_KEYS = [...SWITCHES, 'remote'] as const satisfies ReadonlyArray<keyof EditablePrefs>;

export const PREFS_DEFAULTS: DesktopPrefs = prefsSchema.parse({});

export type PrefsStore = Conf<DesktopPrefs>;

/** Each key's JSON Schema, as conf's `schema` option takes them. */
export const PREFS_JSON_SCHEMA = z.toJSONSchema(prefsSchema, { io: 'input', target: 'draft-2020-12' })
  .properties as unknown as Schema<DesktopPrefs>;

/**
 * A preferences file as read: a key whose value the schema refuses is dropped (it reads as its default),
 * the others are kept. conf checks the whole file against the schema and, on one bad value, would start
 * over from the defaults — turning start at login off and forgetting the window's place.
 */
export function readPrefsFile(text: string): DesktopPrefs {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {} as DesktopPrefs;
  const shape = prefsSchema.shape as Record<string, z.ZodType>;
  const kept = Object.entries(raw).filter(([k, v]) => !Object.hasOwn(shape, k) || shape[k]!.safeParse(v).success);
  return Object.fromEntries(kept.map(([k, v]) => [k, Object.hasOwn(shape, k) ? shape[k]!.parse(v) : v])) as DesktopPrefs;
}

/**
 * The store's options, shared by electron-store in the app and plain conf in the tests. conf refuses a
 * write the schema refuses; a value broken by hand reads as its default and the rest is kept
 * (readPrefsFile); only a file that is not JSON at all starts over from the defaults, rather than
 * keeping the app from starting.
 */
export const PREFS_STORE_OPTIONS = {
  defaults: PREFS_DEFAULTS,
  schema: PREFS_JSON_SCHEMA,
  deserialize: readPrefsFile,
  clearInvalidConfig: true,
} as const;

/** One key, as the schema reads it: a value that is missing or wrong reads as its default. */
export function pref<K extends keyof DesktopPrefs>(store: PrefsStore, key: K): DesktopPrefs[K] {
  const r = prefsSchema.shape[key].safeParse(store.get(key));
  return (r.success ? r.data : PREFS_DEFAULTS[key]) as DesktopPrefs[K];
}
const flag = (store: PrefsStore, key: (typeof SWITCHES)[number]): boolean => pref(store, key);

export function editablePrefs(store: PrefsStore): EditablePrefs {
  return {
    notifyDemotions: flag(store, 'notifyDemotions'),
    notifyUpstreams: flag(store, 'notifyUpstreams'),
    notifyApprovals: flag(store, 'notifyApprovals'),
    startAtLogin: flag(store, 'startAtLogin'),
    remote: pref(store, 'remote'),
  };
}

/**
 * Sets the switches and the console's URL given, ignoring anything else: the window sends back the
 * whole section. The URL is checked first (`checkRemote` throws a sentence), so a refused one sets nothing.
 */
export function setEditablePrefs(
  store: PrefsStore,
  next: Partial<Record<keyof EditablePrefs, unknown>>,
  checkRemote: (url: string) => string = (u) => u,
): void {
  const remote = typeof next.remote === 'string' ? (next.remote.trim() ? checkRemote(next.remote.trim()) : '') : undefined;
  for (const key of SWITCHES) {
    const v = next[key];
    if (typeof v === 'boolean' && store.get(key) !== v) store.set(key, v);
  }
  if (remote !== undefined && store.get('remote') !== remote) store.set('remote', remote);
}

/** Where the window was; a place saved before `maximized` was kept reads as not maximised. */
export function windowPlace(store: PrefsStore): (WindowPlace & { maximized: boolean }) | null {
  const w = pref(store, 'window');
  return w && { ...w, maximized: w.maximized ?? false };
}

export function lastScreen(store: PrefsStore): string {
  return pref(store, 'lastScreen');
}

export function isScreenHash(s: string): boolean {
  return SCREEN_HASH.test(s);
}
