// The one deadline helper (core/deadline.ts): the promise's own outcome, or the timeout's error, and
// no timer left running once the promise settles.
import { describe, expect, it } from 'vitest';
import { within } from '../../../src-main/core/deadline.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('within', () => {
  it('answers what the promise answers and leaves no timer behind', async () => {
    const before = timers();
    expect(await within(Promise.resolve(7), 60_000, () => new Error('late'))).toBe(7);
    await expect(within(Promise.reject(new Error('own')), 60_000, () => new Error('late'))).rejects.toThrow('own');
    await new Promise((r) => setImmediate(r));
    expect(timers()).toBe(before);
  });

  it('rejects with the timeout error when the promise hangs', async () => {
    let told = 0;
    await expect(within(new Promise(() => {}), 5, () => (told++, new Error('upstream did not answer')))).rejects.toThrow(
      'upstream did not answer',
    );
    expect(told).toBe(1);
  });
});
