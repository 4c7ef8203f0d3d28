import { describe, expect, it, vi } from 'vitest';
import { approvalNotice, batcher, notices } from '../../../src-main/desktop/notices.js';
import type { CoreEvent } from '../../../src-main/core/control/events.js';

const prefs = { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false };
const name = (id: string) => ({ default: 'Default', codex: 'Codex' })[id] ?? id;

describe('notifications', () => {
  it('make one notice per agent per sweep, naming the tools and the causes, opening its history', () => {
    const batch: CoreEvent[] = [
      { type: 'toolsDemoted', agent: 'codex', tools: ['a', 'b'], cause: 'idle' },
      { type: 'toolsDemoted', agent: 'default', tools: ['c'], cause: 'cap' },
      { type: 'toolsDemoted', agent: 'codex', tools: ['d'], cause: 'cap' },
      { type: 'setChanged', agent: 'codex' },
    ];
    expect(notices(batch, prefs, name)).toEqual([
      {
        title: "3 tools left Codex's list",
        body: 'a, b (unused past the idle window); d (over the working-set cap). They stay one search away.',
        open: '#/agents/codex/history',
      },
      {
        title: "1 tool left Default's list",
        body: 'c (over the working-set cap). They stay one search away.',
        open: '#/agents/default/history',
      },
    ]);
  });

  it('tell when an upstream goes down or its tools were revoked, and can be muted', () => {
    const batch: CoreEvent[] = [
      { type: 'upstreamStatus', vendor: 'mail', status: 'down' },
      { type: 'upstreamStatus', vendor: 'fs', status: 'down' },
      { type: 'upstreamStatus', vendor: 'fs', status: 'up' },
      { type: 'toolsDemoted', agent: 'default', tools: ['mail__send'], cause: 'revoked' },
    ];
    expect(notices(batch, prefs, name).map((n) => n.title)).toEqual(["1 tool left Default's list", 'Upstream "mail" is down']);
    expect(notices(batch, prefs, name)[0]!.body).toMatch(/their upstream was removed from the settings/);
    expect(notices(batch, { ...prefs, notifyDemotions: false, notifyUpstreams: false }, name)).toEqual([]);
    const revoked = notices([{ type: 'upstreamStatus', vendor: 'crm', status: 'revoked' }], prefs, name);
    expect(revoked).toEqual([{ title: 'Upstream "crm" refused access', body: expect.stringMatching(/401\/403/), open: '#/upstreams' }]);
  });

  it("word a revoked tool by its upstream's reason: refused credentials or removed", () => {
    const batch: CoreEvent[] = [{ type: 'toolsDemoted', agent: 'default', tools: ['crm__find', 'old__x'], cause: 'revoked' }];
    const [n] = notices(batch, prefs, { agentName: name, revokedReason: (t) => (t.startsWith('crm__') ? 'refused' : 'removed') });
    expect(n!.body).toBe(
      'crm__find (their upstream refused our credentials); old__x (their upstream was removed from the settings). They stay one search away.',
    );
  });

  it('tell when an upstream is back after being down, not when it is up at start', () => {
    const up: CoreEvent[] = [{ type: 'upstreamStatus', vendor: 'mail', status: 'up' }];
    expect(notices(up, prefs, { agentName: name, previousStatus: () => 'down' })).toEqual([
      { title: 'Upstream "mail" is back', body: 'Its tools answer again.', open: '#/upstreams' },
    ]);
    expect(notices(up, prefs, { agentName: name, previousStatus: () => 'connecting' })).toEqual([]);
    expect(notices(up, { ...prefs, notifyUpstreams: false }, { agentName: name, previousStatus: () => 'down' })).toEqual([]);
  });

  it('ask for approval with buttons where the platform has them, else open the inbox; can be muted', () => {
    const call = { id: 'c1', agent: 'codex', tool: 'mail__send', arguments: {}, since: 0, withdrawn: false };
    const mac = approvalNotice(call, prefs, name, true)!;
    expect(mac).toMatchObject({ title: 'Codex wants to run mail__send', open: '#/inbox' });
    expect(mac.actions.map((a) => a.text)).toEqual(['Allow once', 'Always allow', 'Deny']);
    const linux = approvalNotice(call, prefs, name, false)!;
    expect(linux.actions).toEqual([]);
    expect(linux.body).toMatch(/Click to answer in the approvals inbox\.$/);
    expect(approvalNotice(call, { ...prefs, notifyApprovals: false }, name, true)).toBeUndefined();
  });

  it('batch the events of one sweep on the clock', () => {
    vi.useFakeTimers();
    try {
      const flushed: CoreEvent[][] = [];
      const push = batcher(800, (b) => flushed.push(b));
      push({ type: 'toolsDemoted', agent: 'a', tools: ['x'], cause: 'idle' });
      push({ type: 'setChanged', agent: 'a' }); // not a notice event
      vi.advanceTimersByTime(500);
      push({ type: 'toolsDemoted', agent: 'b', tools: ['y'], cause: 'cap' });
      vi.advanceTimersByTime(300);
      expect(flushed).toHaveLength(1);
      expect(flushed[0]).toHaveLength(2);
      push({ type: 'toolsDemoted', agent: 'a', tools: ['z'], cause: 'idle' });
      vi.advanceTimersByTime(800);
      expect(flushed).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
