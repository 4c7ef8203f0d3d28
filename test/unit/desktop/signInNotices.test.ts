// The tray and notifications say which server waits for sign-in, and the tray's item starts it.
import { describe, expect, it } from 'vitest';
import { buildTrayMenu, trayIcon, trayTooltip } from '../../../src-main/desktop/trayMenu.js';
import { notices } from '../../../src-main/desktop/notices.js';
import type { StatusView } from '../../../src-main/core/control/api.js';

const status = (): StatusView => ({
  url: 'http://127.0.0.1:4484',
  toolboxSize: 20,
  upstreams: [
    {
      vendor: 'linear',
      kind: 'http',
      status: 'needs-sign-in',
      era: undefined,
      lastError: 'Upstream "linear" needs you to sign in.',
      toolCount: 12,
      source: 'file',
      auth: { signedIn: false, waiting: true },
    },
    { vendor: 'fs', kind: 'stdio', status: 'up', era: '2025-11-25', lastError: undefined, toolCount: 8, source: 'live' },
  ],
  agents: [],
  demotionPaused: false,
  proxyPaused: false,
  pendingApprovals: 0,
  restartNeeded: false,
  editable: true,
});
const prefs = { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false };

describe('an upstream that waits for sign-in', () => {
  it('is named in the tray, with an item that signs in, and the icon asks for attention', () => {
    const s = status();
    expect(trayIcon(s)).toBe('attention');
    expect(trayTooltip(s)).toMatch(/sign in to linear/);
    const menu = buildTrayMenu(s);
    expect(menu).toContainEqual({
      type: 'normal',
      label: 'Sign in to linear…',
      enabled: true,
      action: { kind: 'signIn', vendor: 'linear' },
    });
    // Not counted as "down".
    expect(menu.some((i) => i.type === 'normal' && /down: linear/.test(i.label))).toBe(false);
  });

  it('gets a notification naming it, and one when it is signed in', () => {
    const waiting = notices([{ type: 'upstreamStatus', vendor: 'linear', status: 'needs-sign-in' }], prefs, (id) => id);
    expect(waiting).toEqual([
      { title: 'Upstream "linear" waits for you to sign in', body: expect.stringMatching(/Sign in/), open: '#/upstreams' },
    ]);
    const back = notices([{ type: 'upstreamStatus', vendor: 'linear', status: 'up' }], prefs, {
      agentName: (id) => id,
      previousStatus: () => 'needs-sign-in',
    });
    expect(back.map((n) => n.title)).toEqual(['Signed in to "linear"']);
  });
});
