// The built Electron main process (out/main/index.js) run in plain Node, with `electron` resolved to a
// recording stub: Electron's binary cannot be downloaded here, and this still proves the shell's wiring
// — the core starts on the user's config, the ControlApi answers over IPC, the tray shows the status,
// the window opens isolated, the login item follows the setting, and quitting stops everything.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

function runShell(config: object): Promise<{ code: number | null; report: Record<string, unknown>; stderr: string }> {
  const dir = tempDir();
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const reportPath = join(dir, 'report.json');
  const child = spawn(process.execPath, ['--import', join(ROOT, 'test/fixtures/electron/register.mjs'), join(ROOT, 'out/main/index.js')], {
    env: { ...process.env, MWS_CONFIG: join(dir, 'config.json'), ELECTRON_STUB_REPORT: reportPath, ELECTRON_STUB_APP_PATH: ROOT },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr, report: existsSync(reportPath) ? (JSON.parse(readFileSync(reportPath, 'utf8')) as Record<string, unknown>) : {} })),
  );
}

describe('the built Electron shell', () => {
  it('starts the core, answers the ControlApi over IPC, shows the tray and quits cleanly', async () => {
    if (!existsSync(join(ROOT, 'out/main/index.js'))) throw new Error('Build first: npm run build (npm test does).');
    const dir = tempDir();
    const { code, report, stderr } = await runShell({ upstreams: { demo: { builtin: 'demo' } }, stateDir: join(dir, 'state'), listen: { port: 0 }, desktop: { startAtLogin: true } });
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    expect(report.errors).toEqual([]);
    expect(report.ipcChannels).toEqual(['control:invoke']);
    expect(report.invokeResult).toMatchObject({ ok: true, result: { toolboxSize: 67, proxyPaused: false, agents: [{ id: 'default', size: 0, cap: 20 }] } });
    expect(report.tray).toEqual(expect.arrayContaining([expect.stringMatching(/^Listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/), 'Upstreams: 1 of 1 up · 67 tools', 'Approvals: none waiting', 'Pause proxy', 'Pause automatic demotion', 'Default — 0 of 20 tools ▸', 'Settings…', 'Quit Working Set']));
    expect(String(report.trayImage)).toMatch(/resources\/tray-healthy\.png$/);
    expect(report.loginItem).toEqual({ openAtLogin: true });
    expect(report.windows).toEqual([{ preload: join(ROOT, 'out', 'preload', 'index.cjs'), contextIsolation: true, nodeIntegration: false, sandbox: true }]);
    expect(existsSync(join(ROOT, 'out', 'preload', 'index.cjs'))).toBe(true);
    expect(report.quitCompleted).toBe(true);
  });

  it('says why it cannot start, in a dialog, and quits', async () => {
    const { code, report } = await runShell({ agents: [{ id: 'x', cap: 0 }] });
    expect(code).toBe(0);
    expect(report.errors).toEqual([expect.stringMatching(/^Working Set could not start: .*"agents\[0\]\.cap" must be a whole number from 1 to 500/)]);
  });
});
