// The built Electron main process (out/main/index.js) run in plain Node, with `electron` resolved to a
// recording stub: Electron's binary cannot be downloaded here, and this still proves the shell's wiring
// — the core starts on the user's config, the ControlApi answers over IPC, the tray shows the status,
// the window opens isolated, the login item follows the setting, and quitting stops everything. The
// desktop preferences live in electron-store's file in the user-data folder: moved there from an old
// config on first start, and the window's place and screen kept from one run to the next.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { CONFIG_VERSION } from '../../src-main/core/config/migrate.js';

type Run = { code: number | null; report: Record<string, unknown>; stderr: string; configPath: string };

/** `userData` is electron-store's folder: pass the same one to run the app again as the same user. */
function runShell(config: object | undefined, userData = tempDir(), configDir = tempDir(), env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const dir = tempDir();
  const configPath = join(configDir, 'config.json');
  if (config) writeFileSync(configPath, JSON.stringify(config));
  const reportPath = join(dir, 'report.json');
  const child = spawn(process.execPath, ['--import', join(ROOT, 'test/fixtures/electron/register.mjs'), join(ROOT, 'out/main/index.js')], {
    env: {
      ...process.env,
      MWS_CONFIG: configPath,
      ELECTRON_STUB_REPORT: reportPath,
      ELECTRON_STUB_APP_PATH: ROOT,
      ELECTRON_STUB_USER_DATA: userData,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.once('exit', (code) =>
      resolve({
        code,
        stderr,
        configPath,
        report: existsSync(reportPath) ? (JSON.parse(readFileSync(reportPath, 'utf8')) as Record<string, unknown>) : {},
      }),
    ),
  );
}

describe('the built Electron shell', () => {
  it('starts the core, answers the ControlApi over IPC, shows the tray and quits cleanly', async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build first: npm run build (npm test does).');
    const dir = tempDir();
    const { code, report, stderr } = await runShell({
      upstreams: { demo: { builtin: 'demo' } },
      stateDir: join(dir, 'state'),
      listen: { port: 0 },
      desktop: { startAtLogin: true },
    });
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    expect(report.errors).toEqual([]);
    expect(report.ipcChannels).toEqual(['control:invoke']);
    expect(report.invokeResult).toMatchObject({
      ok: true,
      result: { toolboxSize: 67, proxyPaused: false, agents: [{ id: 'default', size: 0, cap: 20 }] },
    });
    expect(report.tray).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/),
        'Upstreams: 1 of 1 upstream up',
        'Toolbox: 67 tools from 1 upstream · 4 meta-tools',
        'Approvals: none waiting',
        'Pause proxy',
        'Pause automatic demotion',
        'Default — 0 of 20 tools listed ▸',
        'Settings…',
        'Quit Working Set',
      ]),
    );
    expect(String(report.trayImage)).toMatch(/resources\/tray-healthy\.png$/);
    expect(report.loginItem).toEqual({ openAtLogin: true });
    expect(report.windows).toEqual([
      { preload: join(ROOT, 'out', 'preload', 'index.cjs'), contextIsolation: true, nodeIntegration: false, sandbox: true },
    ]);
    expect(existsSync(join(ROOT, 'out', 'preload', 'index.cjs'))).toBe(true);
    expect(report.quitCompleted).toBe(true);
  });

  it('seals secret values with the OS keychain (safeStorage): the store file holds no value, and headless mws cannot open it', async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build first: npm run build (npm test does).');
    const stateDir = join(tempDir(), 'state');
    const value = 'BSA-desktop-typed-5521';
    const { code, report } = await runShell(
      {
        upstreams: { brave: { command: 'brave-mcp-not-installed', env: { BRAVE_API_KEY: '${input:BRAVE_API_KEY}' } } },
        stateDir,
        listen: { port: 0 },
      },
      tempDir(),
      tempDir(),
      { ELECTRON_STUB_SET_VALUE: JSON.stringify({ vendor: 'brave', key: 'BRAVE_API_KEY', value }) },
    );
    expect(report.errors).toEqual([]);
    expect(code).toBe(0);
    expect(report.setValue).toMatchObject({
      ok: true,
      result: { vendor: 'brave', stored: 'input', secret: 'upstreams.brave.inputs.BRAVE_API_KEY' },
    });
    expect(JSON.stringify(report.setValue)).not.toContain(value);
    const file = readFileSync(join(stateDir, 'secrets.json'), 'utf8');
    expect(JSON.parse(file)).toMatchObject({
      version: 1,
      cipher: 'electron-safe-storage',
      secrets: { 'upstreams.brave.inputs.BRAVE_API_KEY': expect.any(String) },
    });
    expect(file).not.toContain(value);
    const { FileSecretStore } = await import('../../src-main/core/secrets/store.js');
    const { MemoryLogger } = await import('../../src-main/core/log.js');
    await expect(new FileSecretStore(stateDir, new MemoryLogger()).get('upstreams.brave.inputs.BRAVE_API_KEY')).rejects.toThrow(
      /sealed with the OS keychain by the Working Set app/,
    );
  });

  it('moves the desktop fields of an old config into its store once, and reopens the window where it was left', async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build first: npm run build (npm test does).');
    const dir = tempDir();
    const userData = tempDir();
    const configDir = tempDir();
    const old = {
      upstreams: { demo: { builtin: 'demo' } },
      stateDir: join(dir, 'state'),
      listen: { port: 0 },
      desktop: { startAtLogin: true, notifyUpstreams: false },
    };
    const first = await runShell(old, userData, configDir);
    expect(first.report.errors).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.report.loginItem).toEqual({ openAtLogin: true });
    // The window's General screen reads and writes the store through the same IPC call as before.
    expect(first.report.settingsDesktop).toEqual({
      notifyDemotions: false,
      notifyUpstreams: false,
      notifyApprovals: true,
      startAtLogin: true,
      remote: '',
    });
    const prefsFile = join(userData, 'preferences.json');
    expect(JSON.parse(readFileSync(prefsFile, 'utf8'))).toMatchObject({
      notifyDemotions: false,
      notifyUpstreams: false,
      notifyApprovals: true,
      startAtLogin: true,
      migratedFromConfig: true,
      lastScreen: '#/agents/default/history',
      window: { x: 40, y: 60, width: 900, height: 700, maximized: false },
    });
    const { desktop, ...rest } = old;
    expect(desktop).toBeDefined();
    // Written back through the config's migrations, so the file also gains its version.
    expect(JSON.parse(readFileSync(first.configPath, 'utf8'))).toEqual({ ...rest, version: CONFIG_VERSION });
    expect(first.report.windowBounds).toEqual([{ width: 1180, height: 820 }]);

    // Second start: the config keeps working without the block, and a block written back by hand
    // later does not override the store (the move happens once).
    // (A fresh state folder: this test is about the preferences, not a restart on the same state.)
    writeFileSync(first.configPath, JSON.stringify({ ...rest, stateDir: join(dir, 'state2'), desktop: { startAtLogin: false } }));
    const second = await runShell(undefined, userData, configDir);
    expect(second.report.errors, `${second.stderr}\n${JSON.stringify(second.report.tray)}`).toEqual([]);
    expect(second.report.invokeResult).toMatchObject({ ok: true, result: { toolboxSize: 67 } });
    expect(second.report.loginItem).toEqual({ openAtLogin: true });
    expect(second.report.windowBounds).toEqual([{ x: 40, y: 60, width: 900, height: 700 }]);
    expect(second.report.loadedHash).toEqual(['/agents/default/history']);
  });

  it('carries electron-store inside out/main: a dev dependency, bundled, so the npm package does not install it', () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build first: npm run build (npm test does).');
    const bare = [...readFileSync(join(ROOT, 'out/main/index.js'), 'utf8').matchAll(/^import\s[^'"]*?from\s+["']([^"'.][^"']*)["']/gm)].map(
      (m) => m[1],
    );
    expect(bare.filter((s) => /^(electron-store|conf|atomically|dot-prop|env-paths)$/.test(s!))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).not.toContain('electron-store');
  });

  it('says why it cannot start, in a dialog, and quits', async () => {
    const { code, report } = await runShell({ agents: [{ id: 'x', cap: 0 }] });
    expect(code).toBe(0);
    expect(report.errors).toEqual([
      expect.stringMatching(/^Working Set could not start: .*"agents\[0\]\.cap" must be a whole number from 1 to 500/),
    ]);
  });
});
