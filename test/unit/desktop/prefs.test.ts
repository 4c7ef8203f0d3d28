// The desktop preferences with plain `conf` (electron-store is the same Conf, constructible only in
// Electron): the one-time move out of an old config, the window's place, and the settings bridge.
import { describe, expect, it } from 'vitest';
import Conf from 'conf';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src-main/core/config/load.js';
import {
  PREFS_DEFAULTS,
  PREFS_JSON_SCHEMA,
  PREFS_STORE_OPTIONS,
  editablePrefs,
  isScreenHash,
  lastScreen,
  prefsSchema,
  windowPlace,
  type DesktopPrefs,
  type PrefsStore,
} from '../../../src-main/desktop/prefs.js';
import { migrateConfigPrefs } from '../../../src-main/desktop/prefsMigration.js';
import { restoredPlace, screenOf, DEFAULT_SIZE } from '../../../src-main/desktop/windowPlace.js';
import { withDesktopPrefs } from '../../../src-main/desktop/settingsBridge.js';
import type { ControlApi, SettingsView } from '../../../src-main/core/control/api.js';
import { startAppFromFile, tempDir } from '../../helpers/app.js';
import { CONFIG_VERSION } from '../../../src-main/core/config/migrate.js';

const store = (cwd = tempDir()): PrefsStore => new Conf<DesktopPrefs>({ cwd, configName: 'preferences', ...PREFS_STORE_OPTIONS });
/** What a store holds before anything is set. */
const DEFAULT_EDITABLE = { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false, remote: '' };

describe('moving the desktop fields out of an old config', () => {
  it('copies them into the store once, takes them out of the file, and the config keeps loading', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const old = {
      upstreams: { demo: { builtin: 'demo' } },
      agents: [{ id: 'a', name: 'Alpha' }],
      stateDir: join(dir, 'state'),
      desktop: { notifyDemotions: false, startAtLogin: true },
    };
    writeFileSync(path, JSON.stringify(old));
    const prefs = store();
    const r = await migrateConfigPrefs(prefs, await loadConfig(path));
    expect(r.moved).toEqual(['notifyDemotions', 'startAtLogin']);
    expect(editablePrefs(prefs)).toEqual({
      notifyDemotions: false,
      notifyUpstreams: true,
      notifyApprovals: true,
      startAtLogin: true,
      remote: '',
    });
    expect(prefs.get('migratedFromConfig')).toBe(true);
    const { desktop: _gone, ...before } = old;
    // Written back through the config's migrations, so the file also gains its version.
    const rest = { ...before, version: CONFIG_VERSION };
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(rest);
    expect(r.loaded.raw).toEqual(rest);
    const again = await loadConfig(path);
    expect(Object.keys(again.config.upstreams)).toEqual(['demo']);
    expect(again.config.agents.map((a) => a.name)).toContain('Alpha');

    // Once: a `desktop` block written back later is left alone and does not override the store.
    writeFileSync(path, JSON.stringify({ ...rest, desktop: { startAtLogin: false } }));
    const second = await migrateConfigPrefs(prefs, await loadConfig(path));
    expect(second.moved).toEqual([]);
    expect(editablePrefs(prefs).startAtLogin).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).desktop).toEqual({ startAtLogin: false });
  });

  it('marks a config without the block (or no config file) as done, writing nothing', async () => {
    const dir = tempDir();
    const prefs = store();
    const r = await migrateConfigPrefs(prefs, await loadConfig(join(dir, 'missing.json')));
    expect(r.moved).toEqual([]);
    expect(prefs.get('migratedFromConfig')).toBe(true);
    expect(editablePrefs(prefs)).toEqual(DEFAULT_EDITABLE);
  });

  it('loads a config whose old block holds anything, moves nothing from it and takes it out of the file', async () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, JSON.stringify({ pins: ['a__b'], desktop: 'junk' }));
    const prefs = store();
    const r = await migrateConfigPrefs(prefs, await loadConfig(path, '/tmp/s'));
    expect(r.moved).toEqual([]);
    expect(editablePrefs(prefs)).toEqual(DEFAULT_EDITABLE);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: CONFIG_VERSION, pins: ['a__b'] });
  });

  it('takes only booleans from the old block', async () => {
    const prefs = store();
    const r = await migrateConfigPrefs(prefs, {
      config: undefined as never,
      path: join(tempDir(), 'c.json'),
      exists: false,
      raw: { desktop: { notifyApprovals: 'no', startAtLogin: true } },
    });
    expect(r.moved).toEqual(['startAtLogin']);
    expect(prefs.get('notifyApprovals')).toBe(true);
  });
});

describe('reading a store edited by hand', () => {
  it('starts over from the defaults when the file is not JSON, instead of refusing to start', () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'preferences.json'), '{"startAtLogin": tru');
    const prefs = store(cwd);
    expect(editablePrefs(prefs)).toEqual(DEFAULT_EDITABLE);
    expect(prefs.get('migratedFromConfig')).toBe(false);
  });

  it("refuses a write the schema refuses (conf's `schema` option), keeping what was there", () => {
    const prefs = store();
    const loose = prefs as unknown as Conf<Record<string, unknown>>;
    expect(() => loose.set('notifyUpstreams', 'yes')).toThrow(/schema violation: `notifyUpstreams` must be boolean/);
    expect(() => loose.set('lastScreen', 'javascript:alert(1)')).toThrow(/schema violation/);
    expect(() => loose.set('window', { x: 'a', y: 0, width: 10, height: 10, maximized: false })).toThrow(/schema violation/);
    expect(editablePrefs(prefs).notifyUpstreams).toBe(true);
    expect(windowPlace(prefs)).toBeNull();
    prefs.set('lastScreen', '#/agents/my%20agent/history');
    expect(lastScreen(prefs)).toBe('#/agents/my%20agent/history');
    expect(isScreenHash('#/x"; alert(1)')).toBe(false);
  });

  it('keeps every good key when a hand edit breaks one, at start or while running (one bad value used to reset them all)', () => {
    const cwd = tempDir();
    const running = store(cwd);
    running.set('window', { x: 1, y: 2, width: 900, height: 700, maximized: false });
    expect(windowPlace(running)).toEqual({ x: 1, y: 2, width: 900, height: 700, maximized: false });
    writeFileSync(
      join(cwd, 'preferences.json'),
      JSON.stringify({
        notifyUpstreams: 'yes',
        window: { x: 'a' },
        lastScreen: 'javascript:alert(1)',
        startAtLogin: true,
        notifyApprovals: false,
      }),
    );
    // Read while running: the bad keys as their defaults, the good ones kept, nothing thrown.
    expect(editablePrefs(running)).toEqual({
      notifyDemotions: true,
      notifyUpstreams: true,
      notifyApprovals: false,
      startAtLogin: true,
      remote: '',
    });
    expect(windowPlace(running)).toBeNull();
    expect(lastScreen(running)).toBe('');
    // Opened again: the same.
    const reopened = store(cwd);
    expect(editablePrefs(reopened)).toEqual(editablePrefs(running));
    // A window place written before `maximized` existed is still a place.
    writeFileSync(
      join(cwd, 'preferences.json'),
      JSON.stringify({ startAtLogin: true, window: { x: 10, y: 20, width: 900, height: 700 }, lastScreen: '#/agents/default' }),
    );
    const older = store(cwd);
    expect(windowPlace(older)).toEqual({ x: 10, y: 20, width: 900, height: 700, maximized: false });
    expect(lastScreen(older)).toBe('#/agents/default');
    expect(editablePrefs(older).startAtLogin).toBe(true);
  });

  it("is declared once: the defaults and conf's JSON Schema are the zod schema's", () => {
    expect(Object.keys(PREFS_JSON_SCHEMA).sort()).toEqual(Object.keys(PREFS_DEFAULTS).sort());
    for (const [key, value] of Object.entries(PREFS_DEFAULTS))
      expect((PREFS_JSON_SCHEMA as Record<string, { default?: unknown }>)[key]?.default, key).toEqual(value);
    expect(prefsSchema.parse({})).toEqual(PREFS_DEFAULTS);
  });
});

describe('where the window opens', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1080 };
  it('opens at the default size until it has a place', () => {
    expect(restoredPlace(null, [screen])).toEqual({ bounds: { ...DEFAULT_SIZE }, maximized: false });
  });
  it('opens where it was left when that is on a display', () => {
    expect(restoredPlace({ x: 100, y: 50, width: 900, height: 700, maximized: true }, [screen])).toEqual({
      bounds: { x: 100, y: 50, width: 900, height: 700 },
      maximized: true,
    });
  });
  it('lets the platform place it when its display is gone, and never below the minimum size', () => {
    expect(restoredPlace({ x: 2500, y: 50, width: 900, height: 700, maximized: false }, [screen]).bounds).toEqual({
      width: 900,
      height: 700,
    });
    expect(restoredPlace({ x: 10, y: 10, width: 20, height: 5, maximized: false }, [screen]).bounds).toEqual({
      x: 10,
      y: 10,
      width: 640,
      height: 480,
    });
    // a second display to the left, at negative coordinates
    expect(
      restoredPlace({ x: -1500, y: 100, width: 900, height: 700, maximized: false }, [screen, { x: -1600, y: 0, width: 1600, height: 900 }])
        .bounds,
    ).toMatchObject({ x: -1500 });
  });
  it('reads the route from the window URL', () => {
    expect(screenOf('file:///a/out/renderer/index.html#/agents/default')).toBe('#/agents/default');
    expect(screenOf('file:///a/out/renderer/index.html')).toBe('');
  });
});

describe('the settings the desktop window sees', () => {
  const view: SettingsView = {
    desktop: { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false },
  } as SettingsView;
  it('reads and writes the switches in the store and hands the rest to the core', async () => {
    const seen: unknown[] = [];
    const core = {
      settings: async () => view,
      updateSettings: async (a: unknown) => {
        seen.push(a);
        return view;
      },
    } as unknown as ControlApi;
    const prefs = store();
    const bridged = withDesktopPrefs(core, prefs);
    const r = await bridged.updateSettings({ compactDescriptions: true, desktop: { startAtLogin: true, notifyApprovals: false } });
    expect(seen).toEqual([{ compactDescriptions: true }]);
    expect(r.desktop).toEqual({ notifyDemotions: true, notifyUpstreams: true, notifyApprovals: false, startAtLogin: true, remote: '' });
    expect((await bridged.settings({})).desktop?.startAtLogin).toBe(true);
    // A switch alone leaves the core's config alone.
    await bridged.updateSettings({ desktop: { notifyDemotions: false } });
    expect(seen).toEqual([{ compactDescriptions: true }]);
    expect(prefs.get('notifyDemotions')).toBe(false);
  });
  it('works over the real core, which keeps no switch of its own and refuses one sent to it', async () => {
    const a = await startAppFromFile({});
    try {
      const prefs = store();
      const bridged = withDesktopPrefs(a.app.control, prefs);
      const r = await bridged.updateSettings({ compactDescriptions: true, desktop: { startAtLogin: true, notifyUpstreams: false } });
      expect(r).toMatchObject({
        compactDescriptions: true,
        desktop: { startAtLogin: true, notifyUpstreams: false, notifyDemotions: true },
      });
      expect(editablePrefs(prefs)).toMatchObject({ startAtLogin: true, notifyUpstreams: false });
      const file = JSON.parse(readFileSync(a.configPath, 'utf8')) as Record<string, unknown>;
      expect(file.compactDescriptions).toBe(true);
      expect(file).not.toHaveProperty('desktop');
      expect(await a.app.control.settings({})).not.toHaveProperty('desktop');
      await expect(a.app.control.updateSettings({ desktop: { startAtLogin: false } })).rejects.toMatchObject({ code: 'usage' });
    } finally {
      await a.stop();
    }
  });

  it("keeps the console's URL, refusing one that would send a token in the clear, and saves nothing then", async () => {
    const core = { settings: async () => ({}), updateSettings: async () => ({}) } as unknown as ControlApi;
    const prefs = store();
    const bridged = withDesktopPrefs(core, prefs);
    await expect(bridged.updateSettings({ desktop: { remote: 'http://mws.example.com', startAtLogin: true } })).rejects.toThrow(
      /is not https: a sign-in token would cross the network in the clear/,
    );
    expect(editablePrefs(prefs)).toMatchObject({ remote: '', startAtLogin: false });
    await bridged.updateSettings({ desktop: { remote: 'https://mws.example.com/' } });
    expect(prefs.get('remote')).toBe('https://mws.example.com');
    // Empty: back to this computer's Working Set.
    await bridged.updateSettings({ desktop: { remote: '  ' } });
    expect(prefs.get('remote')).toBe('');
  });

  it('saves no switch when the core refuses the edit', async () => {
    const core = { updateSettings: async () => Promise.reject(new Error('config_invalid: port')) } as unknown as ControlApi;
    const prefs = store();
    await expect(withDesktopPrefs(core, prefs).updateSettings({ port: -1, desktop: { startAtLogin: true } })).rejects.toThrow(/port/);
    expect(prefs.get('startAtLogin')).toBe(false);
  });
});
