// The tray menu as data, built by a pure function from the core's status, so it is tested in plain
// Node; tray.ts turns it into an Electron menu. No electron import here.
import type { StatusView } from '../core/control/api.js';

export type TrayAction =
  | { kind: 'toggleProxy' }
  | { kind: 'toggleDemotion' }
  | { kind: 'copyUrl'; url: string }
  | { kind: 'openAgent'; agent: string }
  | { kind: 'settings' }
  | { kind: 'quit' };

export type MenuItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; items: MenuItem[] };

export type TrayIcon = 'healthy' | 'degraded' | 'paused';

export function trayIcon(s: StatusView | undefined): TrayIcon {
  if (!s) return 'degraded';
  if (s.proxyPaused) return 'paused';
  return s.upstreams.every((u) => u.status === 'up') ? 'healthy' : 'degraded';
}

export function trayTooltip(s: StatusView | undefined): string {
  if (!s) return 'Working Set — starting';
  const up = s.upstreams.filter((u) => u.status === 'up').length;
  return `Working Set — ${s.proxyPaused ? 'paused' : 'listening'} · ${up}/${s.upstreams.length} upstreams up`;
}

export function buildTrayMenu(s: StatusView | undefined): MenuItem[] {
  if (!s) return [{ type: 'normal', label: 'Starting…', enabled: false }, { type: 'separator' }, { type: 'normal', label: 'Quit Working Set', enabled: true, action: { kind: 'quit' } }];
  const up = s.upstreams.filter((u) => u.status === 'up').length;
  const down = s.upstreams.filter((u) => u.status !== 'up').map((u) => u.vendor);
  return [
    { type: 'normal', label: `${s.proxyPaused ? 'Paused' : 'Listening'} on ${s.url}/mcp`, enabled: false },
    { type: 'normal', label: `Upstreams: ${up}/${s.upstreams.length} up${down.length ? ` (down: ${down.join(', ')})` : ''} · ${s.toolboxSize} tools`, enabled: false },
    { type: 'separator' },
    { type: 'checkbox', label: 'Pause proxy', checked: s.proxyPaused, action: { kind: 'toggleProxy' } },
    { type: 'checkbox', label: 'Pause automatic demotion', checked: s.demotionPaused, action: { kind: 'toggleDemotion' } },
    { type: 'separator' },
    ...s.agents.map(
      (a): MenuItem => ({
        type: 'submenu',
        label: `${a.name}  ${a.size} / ${a.cap}`,
        items: [
          { type: 'normal', label: 'Copy endpoint URL', enabled: true, action: { kind: 'copyUrl', url: a.url } },
          { type: 'normal', label: 'Open working set…', enabled: true, action: { kind: 'openAgent', agent: a.id } },
        ],
      }),
    ),
    { type: 'separator' },
    { type: 'normal', label: 'Settings…', enabled: true, action: { kind: 'settings' } },
    { type: 'normal', label: 'Quit Working Set', enabled: true, action: { kind: 'quit' } },
  ];
}
