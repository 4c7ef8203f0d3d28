// Which desktop notifications to show, as pure functions over core events: one notice per agent per
// sweep naming the demoted tools and why, one per upstream that went down, refused access or came
// back, and one per call waiting for approval. Every kind can be muted. No electron import here.
import type { CoreEvent } from '../core/control/events.js';
import type { NotificationPrefs } from './prefs.js';
import type { PendingCall } from '../core/approvals/types.js';

export type Notice = { title: string; body: string; /** hash route the click opens */ open: string };

/** Why a tool left: `revoked` is worded by what happened to its upstream. */
const WHY: Record<string, string> = {
  idle: 'unused past the idle window',
  cap: 'over the working-set cap',
  'revoked:refused': 'their upstream refused our credentials',
  'revoked:removed': 'their upstream was removed from the settings',
};

export type NoticeContext = {
  agentName: (id: string) => string;
  /** For a revoked tool: did its upstream refuse access (401/403), or was it removed? */
  revokedReason?: (tool: string) => 'refused' | 'removed';
  /** The status each upstream had before this batch, to tell "back" from "up at start". */
  previousStatus?: (vendor: string) => string | undefined;
};

export function notices(batch: CoreEvent[], prefs: NotificationPrefs, ctx: NoticeContext | ((id: string) => string)): Notice[] {
  const c: NoticeContext = typeof ctx === 'function' ? { agentName: ctx } : ctx;
  const out: Notice[] = [];
  if (prefs.notifyDemotions) {
    const byAgent = new Map<string, Map<string, string[]>>();
    for (const e of batch) {
      if (e.type !== 'toolsDemoted') continue;
      const causes = byAgent.get(e.agent) ?? new Map<string, string[]>();
      for (const tool of e.tools) {
        const key = e.cause === 'revoked' ? `revoked:${c.revokedReason?.(tool) ?? 'removed'}` : e.cause;
        causes.set(key, [...(causes.get(key) ?? []), tool]);
      }
      byAgent.set(e.agent, causes);
    }
    for (const [agent, causes] of byAgent) {
      const count = [...causes.values()].reduce((n, t) => n + t.length, 0);
      const parts = [...causes].map(([cause, tools]) => `${tools.join(', ')} (${WHY[cause] ?? cause})`);
      out.push({
        title: `${count} tool${count === 1 ? '' : 's'} left ${c.agentName(agent)}'s list`,
        body: `${parts.join('; ')}. They stay one search away.`,
        open: `#/agents/${encodeURIComponent(agent)}/history`,
      });
    }
  }
  if (prefs.notifyUpstreams) {
    const latest = new Map<string, string>();
    const before = new Map<string, string | undefined>();
    for (const e of batch) {
      if (e.type !== 'upstreamStatus') continue;
      if (!before.has(e.vendor)) before.set(e.vendor, c.previousStatus?.(e.vendor));
      latest.set(e.vendor, e.status);
    }
    for (const [vendor, status] of latest) {
      const was = before.get(vendor);
      if (status === 'down')
        out.push({
          title: `Upstream "${vendor}" is down`,
          body: 'Its tools stay listed from the last-good catalog; calls to them fail until it is back.',
          open: '#/upstreams',
        });
      if (status === 'revoked')
        out.push({
          title: `Upstream "${vendor}" refused access`,
          body: 'It answered 401/403: its tools leave every working set at the next sweep. Check its credentials.',
          open: '#/upstreams',
        });
      if (status === 'needs-value')
        out.push({
          title: `Upstream "${vendor}" needs a value`,
          body: 'It waits for a value you have not given yet (an API key, say): fill it in on the Upstreams screen, or with `mws upstream set`.',
          open: '#/upstreams',
        });
      if (status === 'needs-sign-in')
        out.push({
          title: `Upstream "${vendor}" waits for you to sign in`,
          body: 'Click, then Sign in on its row (the browser opens). Its tools stay listed meanwhile; calls to them say to sign in.',
          open: '#/upstreams',
        });
      if (status === 'up' && was === 'needs-sign-in')
        out.push({ title: `Signed in to "${vendor}"`, body: 'Its tools answer again.', open: '#/upstreams' });
      if (status === 'up' && (was === 'down' || was === 'revoked'))
        out.push({ title: `Upstream "${vendor}" is back`, body: 'Its tools answer again.', open: '#/upstreams' });
    }
  }
  return out;
}

export type ApprovalNotice = Notice & {
  /** Buttons, where the platform shows them (macOS); elsewhere a click opens the inbox. */
  actions: Array<{ text: string; answer: 'once' | 'always' | 'deny' }>;
};

/** The notice for a call waiting for approval, or none when muted. */
export function approvalNotice(
  call: PendingCall,
  prefs: NotificationPrefs,
  agentName: (id: string) => string,
  actionsSupported: boolean,
): ApprovalNotice | undefined {
  if (!prefs.notifyApprovals) return undefined;
  const why = call.withdrawn ? 'Its definition changed since you allowed it.' : 'It can change things and has not been allowed yet.';
  return {
    title: `${agentName(call.agent)} wants to run ${call.tool}`,
    body: actionsSupported ? why : `${why} Click to answer in the approvals inbox.`,
    open: '#/inbox',
    actions: actionsSupported
      ? [
          { text: 'Allow once', answer: 'once' },
          { text: 'Always allow', answer: 'always' },
          { text: 'Deny', answer: 'deny' },
        ]
      : [],
  };
}

/** Collects events for `quietMs` after the first one, then hands over the batch: one sweep, one batch. */
export function batcher(quietMs: number, flush: (batch: CoreEvent[]) => void): (e: CoreEvent) => void {
  let batch: CoreEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (e) => {
    if (e.type !== 'toolsDemoted' && e.type !== 'upstreamStatus') return;
    batch.push(e);
    timer ??= setTimeout(() => {
      const b = batch;
      batch = [];
      timer = undefined;
      flush(b);
    }, quietMs);
  };
}
