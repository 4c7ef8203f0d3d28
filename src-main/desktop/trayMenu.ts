// The tray menu as data, built by a pure function from the core's status, so it is tested in plain
// Node; tray.ts turns it into an Electron menu. No electron import here.
import type { StatusView } from '../core/control/api.js';
import { statusWord, waitsForUser } from '../shared/statusWords.js';
import { listedWords, META_TOOLS_WORDS, toolboxWords, upstreamHealthWords } from '../shared/countWords.js';

export type TrayAction =
  | { kind: 'toggleProxy' }
  | { kind: 'toggleDemotion' }
  | { kind: 'copyUrl'; url: string }
  | { kind: 'openAgent'; agent: string }
  | { kind: 'openInbox' }
  /** An OAuth upstream waits for sign-in: the system browser opens its link. */
  | { kind: 'signIn'; vendor: string }
  | { kind: 'settings' }
  /** Console mode: sign in to the remote instance again (the browser opens the provider's link). */
  | { kind: 'remoteSignIn' }
  /** Console mode: back to the Working Set this computer hosts. */
  | { kind: 'useLocal' }
  | { kind: 'quit' };

/** Console mode, as the tray shows it: the remote's URL, whether its stream is open, what to know or do. */
export type RemoteView = { url: string; connected: boolean; note?: string | undefined };

export type MenuItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; items: MenuItem[] };

export type TrayIcon = 'healthy' | 'degraded' | 'paused' | 'attention';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Waiting approvals outrank everything: the user has something to answer. */
export function trayIcon(s: StatusView | undefined): TrayIcon {
  if (!s) return 'degraded';
  if (s.pendingApprovals > 0) return 'attention';
  if (s.proxyPaused) return 'paused';
  if (s.upstreams.some((u) => u.status === 'needs-sign-in')) return 'attention';
  // One the user turned off is neither up nor a fault.
  return s.upstreams.every((u) => u.status === 'up' || u.status === 'off') ? 'healthy' : 'degraded';
}

/** The image file for an icon: coloured marks, or template shapes that macOS recolours itself. */
export function trayIconFile(icon: TrayIcon, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? `tray-${icon}Template.png` : `tray-${icon}.png`;
}

/** Text beside the icon where the platform shows it (the macOS menu bar): the waiting count. */
export function trayTitle(s: StatusView | undefined): string {
  return s && s.pendingApprovals > 0 ? String(s.pendingApprovals) : '';
}

export function trayTooltip(s: StatusView | undefined, remote?: RemoteView): string {
  if (remote && (!s || !remote.connected)) return `Working Set — console of ${remote.url} · reconnecting`;
  if (!s) return 'Working Set — starting';
  const waiting = s.pendingApprovals > 0 ? ` · ${plural(s.pendingApprovals, 'call')} waiting for approval` : '';
  const signIn = s.upstreams.filter((u) => u.status === 'needs-sign-in').map((u) => u.vendor);
  const signInText = signIn.length ? ` · sign in to ${signIn.join(', ')}` : '';
  const where = remote ? `console of ${remote.url}` : s.proxyPaused ? 'paused' : 'listening';
  return `Working Set — ${where} · ${upstreamHealthWords(s.upstreams)}${waiting}${signInText}`;
}

/** The console's own lines: which instance, whether it is reached, and the way back to this computer's. */
function consoleItems(remote: RemoteView, reached: boolean): { head: MenuItem[]; tail: MenuItem[] } {
  const live = reached && remote.connected;
  return {
    head: [
      { type: 'normal', label: `Console of ${remote.url}${live ? '' : ' — reconnecting…'}`, enabled: false },
      ...(remote.note ? [{ type: 'normal', label: remote.note, enabled: false } as const] : []),
      ...(live ? [] : [{ type: 'normal', label: 'Sign in…', enabled: true, action: { kind: 'remoteSignIn' } } as const]),
    ],
    tail: [{ type: 'normal', label: "Use this computer's Working Set", enabled: true, action: { kind: 'useLocal' } }],
  };
}

export function buildTrayMenu(s: StatusView | undefined, remote?: RemoteView): MenuItem[] {
  if (remote && !s) {
    const c = consoleItems(remote, false);
    return [
      ...c.head,
      { type: 'separator' },
      ...c.tail,
      { type: 'normal', label: 'Quit Working Set', enabled: true, action: { kind: 'quit' } },
    ];
  }
  const c = remote ? consoleItems(remote, true) : { head: [], tail: [] };
  if (!s)
    return [
      { type: 'normal', label: 'Starting…', enabled: false },
      { type: 'separator' },
      { type: 'normal', label: 'Quit Working Set', enabled: true, action: { kind: 'quit' } },
    ];
  // An upstream that waits for the user (a value, a sign-in) is not "down": it gets its own line to act on.
  const down = s.upstreams.filter((u) => u.status !== 'up' && u.status !== 'off' && !waitsForUser(u)).map((u) => u.vendor);
  const waiting = s.upstreams.filter((u) => waitsForUser(u) && u.status !== 'needs-sign-in');
  // Each server that waits for sign-in is named, with the item that opens its sign-in in the browser.
  const signIns = s.upstreams
    .filter((u) => u.status === 'needs-sign-in')
    .map((u): MenuItem => ({
      type: 'normal',
      label: `Sign in to ${u.vendor}…`,
      enabled: true,
      action: { kind: 'signIn', vendor: u.vendor },
    }));
  return [
    ...c.head,
    { type: 'normal', label: `${s.proxyPaused ? 'Paused' : 'Listening'} on ${s.url}/mcp`, enabled: false },
    // The same words as the window's header and `mws report` (shared/countWords.ts).
    { type: 'normal', label: `Upstreams: ${upstreamHealthWords(s.upstreams, down)}`, enabled: false },
    { type: 'normal', label: `Toolbox: ${toolboxWords(s.toolboxSize, s.upstreams)} · ${META_TOOLS_WORDS}`, enabled: false },
    ...waiting.map((u): MenuItem => ({
      type: 'normal',
      label: `${u.vendor} ${statusWord(u)}…`,
      enabled: true,
      action: { kind: 'settings' },
    })),
    ...(signIns.length ? [{ type: 'separator' } as const, ...signIns] : []),
    { type: 'separator' },
    s.pendingApprovals > 0
      ? { type: 'normal', label: `Approvals: ${s.pendingApprovals} waiting…`, enabled: true, action: { kind: 'openInbox' } }
      : { type: 'normal', label: 'Approvals: none waiting', enabled: true, action: { kind: 'openInbox' } },
    { type: 'separator' },
    { type: 'checkbox', label: 'Pause proxy', checked: s.proxyPaused, action: { kind: 'toggleProxy' } },
    { type: 'checkbox', label: 'Pause automatic demotion', checked: s.demotionPaused, action: { kind: 'toggleDemotion' } },
    { type: 'separator' },
    ...s.agents.map((a): MenuItem => ({
      type: 'submenu',
      label: `${a.name} — ${listedWords(a.size, a.cap)}`,
      items: [
        { type: 'normal', label: 'Copy endpoint URL', enabled: true, action: { kind: 'copyUrl', url: a.url } },
        { type: 'normal', label: 'Open working set…', enabled: true, action: { kind: 'openAgent', agent: a.id } },
      ],
    })),
    { type: 'separator' },
    { type: 'normal', label: 'Settings…', enabled: true, action: { kind: 'settings' } },
    ...c.tail,
    { type: 'normal', label: 'Quit Working Set', enabled: true, action: { kind: 'quit' } },
  ];
}
