// The kept reports (src-main/core/control/report/keptReports.ts): by key, frozen, forgotten for removed
// agents and when no report was asked for a while.
import { describe, expect, it } from 'vitest';
import { KeptReports } from '../../../src-main/core/control/report/keptReports.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import type { AgentReport } from '../../../src-main/core/control/api.js';

const report = (agent: string) => ({ agent, listed: [{ tool: 't' }], calls: [] }) as unknown as AgentReport;

describe('KeptReports', () => {
  it('answers a report only for the key it was kept under, frozen', () => {
    const kept = new KeptReports(new ManualClock(), 1000);
    const r = kept.keep('a', [1, 2], report('a'));
    expect(kept.get('a', [1, 2])).toBe(r);
    expect(kept.get('a', [1, 3])).toBeUndefined();
    expect(kept.get('a', [1])).toBeUndefined();
    expect(kept.get('b', [1, 2])).toBeUndefined();
    expect(Object.isFrozen(r.listed[0])).toBe(true);
  });

  it('forgets agents no longer configured', () => {
    const kept = new KeptReports(new ManualClock(), 1000);
    kept.keep('a', [1], report('a'));
    kept.keep('b', [1], report('b'));
    kept.retain(new Set(['b']));
    expect(kept.get('a', [1])).toBeUndefined();
    expect(kept.get('b', [1])).toBeDefined();
    expect(kept.size).toBe(1);
  });

  it('lets every report go when none was asked for during its time', () => {
    const clock = new ManualClock();
    const kept = new KeptReports(clock, 1000);
    kept.get('a', [1]);
    kept.keep('a', [1], report('a'));
    clock.advance(999);
    expect(kept.get('a', [1])).toBeDefined();
    clock.advance(999);
    expect(kept.size).toBe(1);
    clock.advance(1);
    expect(kept.size).toBe(0);
  });
});
