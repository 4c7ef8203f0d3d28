// Which desktop notifications to show, as a pure function over a batch of core events: one notice
// per agent per sweep naming the demoted tools and why, and one per upstream that went down or was
// removed. No electron import here.
import type { CoreEvent } from '../core/control/events.js';
import type { DesktopSettings } from '../core/config/schema.js';

export type Notice = { title: string; body: string; /** hash route the click opens */ open: string };

const WHY: Record<string, string> = {
  idle: 'unused past the idle window',
  cap: 'over the working-set cap',
  revoked: 'their upstream was removed',
};

export function notices(batch: CoreEvent[], prefs: DesktopSettings, agentName: (id: string) => string): Notice[] {
  const out: Notice[] = [];
  if (prefs.notifyDemotions) {
    const byAgent = new Map<string, Map<string, string[]>>();
    for (const e of batch) {
      if (e.type !== 'toolsDemoted') continue;
      const causes = byAgent.get(e.agent) ?? new Map<string, string[]>();
      causes.set(e.cause, [...(causes.get(e.cause) ?? []), ...e.tools]);
      byAgent.set(e.agent, causes);
    }
    for (const [agent, causes] of byAgent) {
      const count = [...causes.values()].reduce((n, t) => n + t.length, 0);
      const parts = [...causes].map(([cause, tools]) => `${tools.join(', ')} (${WHY[cause] ?? cause})`);
      out.push({
        title: `${count} tool${count === 1 ? '' : 's'} left ${agentName(agent)}'s list`,
        body: `${parts.join('; ')}. They stay one search away.`,
        open: `#/agents/${encodeURIComponent(agent)}/history`,
      });
    }
  }
  if (prefs.notifyUpstreams) {
    const latest = new Map<string, string>();
    for (const e of batch) if (e.type === 'upstreamStatus') latest.set(e.vendor, e.status);
    for (const [vendor, status] of latest) {
      if (status === 'down') out.push({ title: `Upstream "${vendor}" is down`, body: 'Its tools stay listed from the last-good catalog; calls to them fail until it is back.', open: '#/upstreams' });
      if (status === 'revoked') out.push({ title: `Upstream "${vendor}" refused access`, body: 'It answered 401/403: its tools leave every working set at the next sweep. Check its credentials.', open: '#/upstreams' });
    }
  }
  return out;
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
