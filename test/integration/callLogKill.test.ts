// The call log keeps what it acknowledged: a call's record is written before its
// answer goes out, so kill -9 of a real `mws serve` mid-flood loses none of the calls it answered.
// The full measurement (10 kills, ≥ 10,000 calls) is bench/callLogKill.ts; CI runs two short rounds.
import { describe, expect, it } from 'vitest';
import { killRound } from '../helpers/killRound.js';

describe('kill -9 during a flood of calls', () => {
  it('loses no answered call from calls.jsonl (2 rounds of 300 calls, 16 in parallel, killed in the turn the 300th answer arrives)', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await killRound({ calls: 300, parallel: 16 });
      expect(r.answered).toBeGreaterThanOrEqual(300);
      expect(r.lost, `round ${round}: ${r.lost} of ${r.answered} answered calls missing from calls.jsonl`).toBe(0);
    }
  }, 240_000);
});
