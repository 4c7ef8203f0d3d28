import { describe, expect, it } from 'vitest';
import { buildTrayMenu, trayIcon, trayIconFile, trayTitle, trayTooltip, type MenuItem } from '../../../src-main/desktop/trayMenu.js';
import type { StatusView } from '../../../src-main/core/control/api.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/processes.js';

const status = (over: Partial<StatusView> = {}): StatusView => ({
  url: 'http://127.0.0.1:4484',
  toolboxSize: 67,
  upstreams: [
    { vendor: 'mail', kind: 'http', status: 'up', era: '2026-07-28', lastError: undefined, toolCount: 18, source: 'live' },
    { vendor: 'fs', kind: 'stdio', status: 'up', era: '2025-11-25', lastError: undefined, toolCount: 49, source: 'live' },
  ],
  agents: [
    { id: 'default', name: 'Default', cap: 20, idleWindowDays: 21, approvals: 'ask', size: 7, url: 'http://127.0.0.1:4484/mcp' },
    { id: 'codex', name: 'Codex', cap: 10, idleWindowDays: 21, approvals: 'ask', size: 12, url: 'http://127.0.0.1:4484/mcp/codex' },
  ],
  demotionPaused: false,
  proxyPaused: false,
  pendingApprovals: 0,
  restartNeeded: false,
  editable: true,
  ...over,
});
const labels = (items: MenuItem[]) => items.map((i) => (i.type === 'separator' ? '—' : i.label));

describe('the tray', () => {
  it('shows healthy, degraded and paused', () => {
    expect(trayIcon(status())).toBe('healthy');
    const s = status();
    s.upstreams[1]!.status = 'down';
    expect(trayIcon(s)).toBe('degraded');
    expect(trayIcon(status({ proxyPaused: true }))).toBe('paused');
    expect(trayIcon(undefined)).toBe('degraded');
    expect(trayTooltip(s)).toBe('Working Set — listening · 1 of 2 upstreams up');
  });

  it('counts an upstream the user turned off as neither down nor a fault', () => {
    const s = status();
    s.upstreams[1]!.status = 'off';
    expect(trayIcon(s)).toBe('healthy');
    expect(labels(buildTrayMenu(s)).join('\n')).not.toMatch(/down:/);
  });

  it('shows waiting approvals above all: its own icon, the count beside it, an entry that opens the inbox', () => {
    const s = status({ pendingApprovals: 2, proxyPaused: true });
    expect(trayIcon(s)).toBe('attention');
    expect(trayTitle(s)).toBe('2');
    expect(trayTitle(status())).toBe('');
    expect(trayTooltip(s)).toBe('Working Set — paused · 2 of 2 upstreams up · 2 calls waiting for approval');
    expect(buildTrayMenu(s)[4]).toEqual({ type: 'normal', label: 'Approvals: 2 waiting…', enabled: true, action: { kind: 'openInbox' } });
  });

  it('uses coloured marks on Linux and Windows and template images on macOS, all of which exist', () => {
    expect(trayIconFile('healthy', 'linux')).toBe('tray-healthy.png');
    expect(trayIconFile('attention', 'win32')).toBe('tray-attention.png');
    expect(trayIconFile('paused', 'darwin')).toBe('tray-pausedTemplate.png');
    for (const icon of ['healthy', 'degraded', 'paused', 'attention'] as const) {
      for (const platform of ['linux', 'darwin'] as const) {
        const file = join(ROOT, 'resources', trayIconFile(icon, platform));
        expect(existsSync(file), file).toBe(true);
        expect(existsSync(file.replace('.png', '@2x.png'))).toBe(true);
      }
    }
    // The app icon at the sizes Forge packs: Linux PNG, Windows ICO, macOS ICNS.
    for (const f of ['icon.png', 'icon.ico', 'icon.icns']) expect(existsSync(join(ROOT, 'resources', f)), f).toBe(true);
    expect(
      readFileSync(join(ROOT, 'resources', 'icon.icns'))
        .subarray(0, 4)
        .toString('ascii'),
    ).toBe('icns');
  });

  it('builds the menu from the status: where it listens, upstreams, toggles, each agent with size / cap, settings, quit', () => {
    const s = status({ demotionPaused: true });
    s.upstreams[1]!.status = 'down';
    const menu = buildTrayMenu(s);
    expect(labels(menu)).toEqual([
      'Listening on http://127.0.0.1:4484/mcp',
      'Upstreams: 1 of 2 upstreams up (down: fs)',
      'Toolbox: 67 tools from 2 upstreams · 4 meta-tools',
      '—',
      'Approvals: none waiting',
      '—',
      'Pause proxy',
      'Pause automatic demotion',
      '—',
      'Default — 7 of 20 tools listed',
      'Codex — 12 of 10 tools listed',
      '—',
      'Settings…',
      'Quit Working Set',
    ]);
    expect(menu[7]).toMatchObject({ type: 'checkbox', checked: true, action: { kind: 'toggleDemotion' } });
    const codex = menu[10] as Extract<MenuItem, { type: 'submenu' }>;
    expect(codex.items[0]).toMatchObject({
      label: 'Copy endpoint URL',
      action: { kind: 'copyUrl', url: 'http://127.0.0.1:4484/mcp/codex' },
    });
    expect(codex.items[1]).toMatchObject({ action: { kind: 'openAgent', agent: 'codex' } });
  });

  it('offers only Quit while the core is starting', () => {
    expect(labels(buildTrayMenu(undefined))).toEqual(['Starting…', '—', 'Quit Working Set']);
  });

  it("as a console, names the remote instance, says when it is not reached, and offers the way back to this computer's", () => {
    const remote = { url: 'https://mws.team.example', connected: true };
    const live = buildTrayMenu(status(), remote);
    expect(labels(live)[0]).toBe('Console of https://mws.team.example');
    expect(labels(live).slice(-2)).toEqual(["Use this computer's Working Set", 'Quit Working Set']);
    expect(live.at(-2)).toMatchObject({ action: { kind: 'useLocal' } });
    expect(trayTooltip(status(), remote)).toMatch(/^Working Set — console of https:\/\/mws\.team\.example · /);

    const away = buildTrayMenu(undefined, {
      ...remote,
      connected: false,
      note: 'Sign in to https://mws.team.example: confirm the code ABCD in your browser.',
    });
    expect(labels(away)).toEqual([
      'Console of https://mws.team.example — reconnecting…',
      'Sign in to https://mws.team.example: confirm the code ABCD in your browser.',
      'Sign in…',
      '—',
      "Use this computer's Working Set",
      'Quit Working Set',
    ]);
    expect(away[2]).toMatchObject({ action: { kind: 'remoteSignIn' } });
    expect(trayTooltip(undefined, { ...remote, connected: false })).toBe(
      'Working Set — console of https://mws.team.example · reconnecting',
    );
  });
});
