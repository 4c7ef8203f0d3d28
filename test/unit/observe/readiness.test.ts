// The readiness rule: the database must answer, and once tried at least one enabled upstream must be up.
import { describe, expect, it } from 'vitest';
import { decideReadiness } from '../../../src-main/core/observe/health.js';

describe('readiness', () => {
  it('is ready with the database answering and an upstream up, even when another is down', () => {
    expect(decideReadiness('ok', ['up', 'down'])).toEqual({
      ready: true,
      database: 'ok',
      upstreams: { up: 1, down: 1, starting: 0, off: 0 },
    });
  });
  it('is not ready when the database cannot be reached', () => {
    expect(decideReadiness('unreachable', ['up'])).toMatchObject({ ready: false, reason: 'the state database cannot be reached' });
  });
  it('is not ready while every upstream is still starting, nor when none can be reached', () => {
    expect(decideReadiness('none', ['starting', 'down'])).toMatchObject({ ready: false, reason: 'the upstreams are still starting' });
    expect(decideReadiness('none', ['down', 'needs-sign-in', 'off'])).toMatchObject({ ready: false, reason: 'no upstream can be reached' });
  });
  it('is ready with no upstream configured, or only upstreams turned off (only the meta-tools are served)', () => {
    expect(decideReadiness('none', []).ready).toBe(true);
    expect(decideReadiness('ok', ['off']).ready).toBe(true);
  });
});
