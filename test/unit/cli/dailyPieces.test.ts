// The pure parts of the daily commands: the next step per upstream, the sign-in words, add/edit flags,
// and the log follower on a manual clock.
import { describe, expect, it } from 'vitest';
import { nextStep, signInWord, statusCounts } from '../../../src-main/cli/daily/nextStep.js';
import { editedUpstream, newUpstream } from '../../../src-main/cli/daily/upstreamInput.js';
import { followLog } from '../../../src-main/cli/daily/followLog.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import type { UpstreamLogLine } from '../../../src-main/core/control/api.js';

const row = (status: string, more: Record<string, unknown> = {}) =>
  ({ vendor: 'gh', kind: 'http', status, lastError: undefined, ...more }) as Parameters<typeof nextStep>[0];

describe('nextStep and the sign-in words', () => {
  it('names the command that moves each status on', () => {
    expect(nextStep(row('up'))).toBeUndefined();
    expect(nextStep(row('off'))).toBe('turn it on: mws upstream enable gh');
    expect(nextStep(row('needs-value', { needs: ['GITHUB_TOKEN'] }))).toBe('give it a value: mws upstream set gh GITHUB_TOKEN');
    expect(nextStep(row('needs-sign-in'))).toBe('sign in: mws login gh');
    expect(nextStep(row('needs-sign-in', { auth: { signedIn: false, waiting: false, lost: true } }))).toBe('sign in again: mws login gh');
    expect(nextStep(row('down'))).toBe('see why: mws upstream log gh');
  });

  it('says signed in, sign in, or sign in again', () => {
    expect(signInWord(row('up', { auth: { signedIn: true, waiting: false } }))).toBe('signed in');
    expect(signInWord(row('needs-sign-in', { lastError: 'Upstream "gh" needs you to sign in. … then try again.' }))).toBe('sign in');
    expect(signInWord(row('needs-sign-in', { auth: { signedIn: false, waiting: true, lost: true } }))).toBe('sign in again');
  });

  it('counts statuses, the serving ones first', () => {
    expect(statusCounts([{ status: 'down' }, { status: 'up' }, { status: 'up' }, { status: 'needs-value', needs: ['A'] }])).toBe(
      '2 up, 1 down, 1 needs a value',
    );
  });
});

describe('upstream add/edit flags', () => {
  const f = { url: undefined, command: [] as string[], headers: [] as string[], env: [] as string[] };
  it('makes an HTTP or a command upstream, never both', () => {
    expect(newUpstream({ ...f, url: 'https://x/mcp', headers: ['Authorization: Bearer a=b'] })).toEqual({
      url: 'https://x/mcp',
      headers: { Authorization: 'Bearer a=b' },
    });
    expect(newUpstream({ ...f, command: ['npx', '-y', 'srv'], env: ['K=v=w'] })).toEqual({
      command: 'npx',
      args: ['-y', 'srv'],
      env: { K: 'v=w' },
    });
    expect(() => newUpstream({ ...f, url: 'https://x/mcp', command: ['node'] })).toThrow(/not both/);
    expect(() => newUpstream({ ...f, url: 'https://x/mcp', env: ['A=1'] })).toThrow(/takes --header/);
    expect(() => newUpstream({ ...f, env: ['novalue'], command: ['x'] })).toThrow(/--env takes NAME=VALUE \(got "novalue"\)/);
  });

  it('edits keep what is not named (masked secrets included) and K= removes K', () => {
    const saved = { url: 'https://x/mcp', headers: { Authorization: '••••', 'X-A': '1' } };
    expect(editedUpstream(saved, { ...f, headers: ['X-A='] })).toEqual({ url: 'https://x/mcp', headers: { Authorization: '••••' } });
    expect(editedUpstream(saved, { ...f, command: ['node', 's.js'] })).toEqual({ command: 'node', args: ['s.js'] });
    expect(editedUpstream({ command: 'node', args: ['a.js'], cwd: '/w' }, { ...f, env: ['B=2'] })).toEqual({
      command: 'node',
      args: ['a.js'],
      env: { B: '2' },
      cwd: '/w',
    });
    expect(() => editedUpstream(saved, f)).toThrow(/Say what to change/);
  });
});

describe('followLog', () => {
  it('prints each line once as the log grows, on the injected clock, until stopped', async () => {
    const clock = new ManualClock();
    const lines: UpstreamLogLine[] = [{ ts: '2026-01-01T00:00:00.000Z', kind: 'event', text: 'connected' }];
    let asked = 0;
    const api = {
      upstreamLog: async () => {
        asked++;
        return { vendor: 'gh', status: 'up', lines: [...lines] };
      },
    };
    const printed: string[] = [];
    const stop = new AbortController();
    const done = followLog(api, 'gh', (l) => printed.push(l.text), clock, stop.signal, 1000);
    await Promise.resolve();
    await Promise.resolve();
    expect(printed).toEqual(['connected']);
    lines.push({ ts: '2026-01-01T00:00:01.000Z', kind: 'stderr', text: 'hello' });
    clock.advance(1000);
    await new Promise((r) => setImmediate(r));
    expect(printed).toEqual(['connected', 'hello']);
    clock.advance(1000);
    await new Promise((r) => setImmediate(r));
    expect(printed).toEqual(['connected', 'hello']);
    expect(asked).toBe(3);
    stop.abort();
    await done;
    clock.advance(5000);
    expect(asked).toBe(3);
  });

  it('ends with the error once the instance has stopped answering several polls in a row', async () => {
    const clock = new ManualClock();
    let asked = 0;
    const api = {
      upstreamLog: async () => {
        asked++;
        throw new Error('gone');
      },
    };
    let ended: unknown;
    const done = followLog(api, 'gh', () => {}, clock, new AbortController().signal, 1000, 3).catch((e: unknown) => (ended = e));
    await new Promise((r) => setImmediate(r));
    clock.advance(1000);
    await new Promise((r) => setImmediate(r));
    expect(ended).toBeUndefined();
    clock.advance(1000);
    await done;
    expect(asked).toBe(3);
    // A sentence that names the cause, not the raw error (a stopped instance printed a stack trace).
    expect(ended).toMatchObject({ code: 'instance_unreachable' });
    expect((ended as Error).message).toMatch(/^The running instance stopped answering \(gone\), so the log ends here\./);
  });

  it('carries on through a poll or two that fail (an instance busy with a restart answers late)', async () => {
    const clock = new ManualClock();
    const lines: UpstreamLogLine[] = [{ ts: '2026-01-01T00:00:00.000Z', kind: 'event', text: 'connected' }];
    let asked = 0;
    const api = {
      upstreamLog: async () => {
        asked++;
        if (asked === 2 || asked === 3) throw new Error('The running instance did not answer in time.');
        return { vendor: 'gh', status: 'up', lines: [...lines] };
      },
    };
    const printed: string[] = [];
    const stop = new AbortController();
    const done = followLog(api, 'gh', (l) => printed.push(l.text), clock, stop.signal, 1000);
    await new Promise((r) => setImmediate(r));
    lines.push({ ts: '2026-01-01T00:00:03.000Z', kind: 'event', text: 'connected again' });
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      await new Promise((r) => setImmediate(r));
    }
    expect(asked).toBe(4);
    expect(printed).toEqual(['connected', 'connected again']);
    stop.abort();
    await done;
  });
});
