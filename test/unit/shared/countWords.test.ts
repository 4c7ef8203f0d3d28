// Counts read the same in every place and on every machine, without loading a locale for it.
import { describe, expect, it } from 'vitest';
import { plural, thousands } from '../../../src-main/shared/countWords.js';

describe('thousands', () => {
  it('groups digits by three with commas, as en does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 1234567, 50_000, -1234, 1234.5, 10_000_000])
      expect(thousands(n)).toBe(n.toLocaleString('en', { maximumFractionDigits: 20 }));
  });

  it('is what plural says a count with', () => {
    expect(plural(1, 'call')).toBe('1 call');
    expect(plural(26000, 'pin')).toBe('26,000 pins');
  });
});
