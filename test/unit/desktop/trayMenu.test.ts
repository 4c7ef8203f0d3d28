import { describe, expect, it } from 'vitest';
import { buildTrayMenu, trayIcon, trayTooltip, type MenuItem } from '../../../src-main/desktop/trayMenu.js';
import type { StatusView } from '../../../src-main/core/control/api.js';

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
    expect(trayTooltip(s)).toBe('Working Set — listening · 1/2 upstreams up');
  });

  it('builds the menu from the status: where it listens, upstreams, toggles, each agent with size / cap, settings, quit', () => {
    const s = status({ demotionPaused: true });
    s.upstreams[1]!.status = 'down';
    const menu = buildTrayMenu(s);
    expect(labels(menu)).toEqual([
      'Listening on http://127.0.0.1:4484/mcp',
      'Upstreams: 1/2 up (down: fs) · 67 tools',
      '—',
      'Pause proxy',
      'Pause automatic demotion',
      '—',
      'Default  7 / 20',
      'Codex  12 / 10',
      '—',
      'Settings…',
      'Quit Working Set',
    ]);
    expect(menu[4]).toMatchObject({ type: 'checkbox', checked: true, action: { kind: 'toggleDemotion' } });
    const codex = menu[7] as Extract<MenuItem, { type: 'submenu' }>;
    expect(codex.items[0]).toMatchObject({ label: 'Copy endpoint URL', action: { kind: 'copyUrl', url: 'http://127.0.0.1:4484/mcp/codex' } });
    expect(codex.items[1]).toMatchObject({ action: { kind: 'openAgent', agent: 'codex' } });
  });

  it('offers only Quit while the core is starting', () => {
    expect(labels(buildTrayMenu(undefined))).toEqual(['Starting…', '—', 'Quit Working Set']);
  });
});
