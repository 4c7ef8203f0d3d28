// The ControlApi's settings half: general settings here, agents' in agentSettings.ts, upstreams' in
// upstreamSettings.ts; each edit validated and saved through the ConfigEditor (configEdits.ts), then
// applied to the running core.
import { MwsError } from '../errors.js';
import { DEFAULT_PORT } from '../config/schema.js';
import type { Raw } from '../config/editor.js';
import { fieldRules } from '../config/fieldRules.js';
import type { BoundedField, SettingsView } from './api.js';
import type { ControlHandlers } from './contract.js';
import { configEdits, type SettingsParts } from './configEdits.js';
import { agentSettingsControl } from './agentSettings.js';
import { upstreamSettingsControl } from './upstreamSettings.js';

export type { SettingsParts } from './configEdits.js';

/** Where each number a form edits sits in the config, for its bounds (read once: the schema does not change). */
const BOUNDED: Record<BoundedField, ReadonlyArray<PropertyKey>> = {
  cap: ['agents', 0, 'cap'],
  idleWindowDays: ['agents', 0, 'idleWindowDays'],
  port: ['listen', 'port'],
  minSessions: ['promote', 'minSessions'],
  minCalls: ['promote', 'minCalls'],
  windowDays: ['promote', 'windowDays'],
  pinDecayDays: ['promote', 'pinDecayDays'],
};
let formBounds: SettingsView['bounds'] | undefined;
const FORM_BOUNDS = (): SettingsView['bounds'] =>
  (formBounds ??= Object.fromEntries(
    Object.entries(BOUNDED).map(([k, path]) => {
      const { min, max } = fieldRules(path);
      return [k, { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) }];
    }),
  ) as SettingsView['bounds']);

type Methods = Pick<ControlHandlers, 'settings' | 'updateSettings'>;

export function settingsControl(
  p: SettingsParts,
): Methods & ReturnType<typeof agentSettingsControl> & ReturnType<typeof upstreamSettingsControl> {
  const { edit } = configEdits(p);
  /**
   * The port the config file asks for. A run started with --port listens elsewhere, but Save must not
   * write that port into the file: the client entries written by import point at the file's port.
   */
  const filePort = (): number => {
    if (!p.editor.editable) return p.config.listen.port;
    const port = (p.editor.current().listen as { port?: unknown } | undefined)?.port;
    return typeof port === 'number' ? port : DEFAULT_PORT;
  };
  const settingsView = (): SettingsView => ({
    port: filePort(),
    compactDescriptions: p.config.compactDescriptions,
    promote: {
      minSessions: p.config.promote.minSessions,
      minCalls: p.config.promote.minCalls,
      windowDays: p.config.promote.windowDays,
      pinDecayDays: p.config.promote.pinDecayDays,
    },
    configPath: p.configPath,
    bounds: FORM_BOUNDS(),
  });

  return {
    ...agentSettingsControl(p),
    ...upstreamSettingsControl(p),
    async settings() {
      return settingsView();
    },
    async updateSettings(a) {
      // The switches are the desktop app's preferences, which its settings bridge takes out of the call;
      // the config has no place for them, so one reaching the core would be dropped without a word.
      if (a.desktop !== undefined) {
        throw new MwsError(
          'usage',
          'updateSettings: "desktop" holds the desktop app\'s own preferences (notifications, start at login), which it keeps in its preferences file; this mws runs without the desktop app and has none. Leave "desktop" out, or change them in the desktop app\'s General screen.',
          { path: 'desktop', reason: "is the desktop app's own preferences; headless mws has none" },
        );
      }
      await edit((raw) => {
        if (a.port !== undefined && a.port !== filePort()) raw.listen = { ...((raw.listen as Raw | undefined) ?? {}), port: a.port };
        if (a.compactDescriptions !== undefined) raw.compactDescriptions = a.compactDescriptions;
        if (a.promote) raw.promote = { ...((raw.promote as Raw | undefined) ?? {}), ...a.promote };
      });
      return settingsView();
    },
  };
}
