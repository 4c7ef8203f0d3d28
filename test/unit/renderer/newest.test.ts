// The window's reads may come back out of order over HTTP: an older answer must not replace a newer one.
import { describe, expect, it } from 'vitest';
import { newest } from '../../../src-renderer/src/lib/newest.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('newest', () => {
  it('drops an answer that arrives after a later-begun one was kept, and keeps each otherwise', async () => {
    const shown: number[] = [];
    const keep = newest<number>((v) => shown.push(v));
    const a = deferred<number>();
    const b = deferred<number>();
    const pa = keep(a.promise, () => {});
    const pb = keep(b.promise, () => {});
    b.resolve(2);
    await pb;
    a.resolve(1);
    await pa;
    expect(shown).toEqual([2]);
    // in order, every answer shows: a screen re-reading faster than a read takes still moves on
    const c = deferred<number>();
    const d = deferred<number>();
    const pc = keep(c.promise, () => {});
    const pd = keep(d.promise, () => {});
    c.resolve(3);
    await pc;
    d.resolve(4);
    await pd;
    expect(shown).toEqual([2, 3, 4]);
  });

  it('counts a failure as the newest outcome when it is handled, and throws it to an action otherwise', async () => {
    const shown: string[] = [];
    const keep = newest<string>((v) => shown.push(v));
    const old = deferred<string>();
    const pOld = keep(old.promise, (e) => shown.push(`failed: ${e.message}`));
    await keep(Promise.reject(new Error('lost')), (e) => shown.push(`failed: ${e.message}`));
    old.resolve('stale');
    await pOld;
    expect(shown).toEqual(['failed: lost']);
    await expect(keep(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(shown).toEqual(['failed: lost']);
    await keep(Promise.resolve('fresh'));
    expect(shown).toEqual(['failed: lost', 'fresh']);
  });
});

describe('newest: an action', () => {
  it("keeps an action's answer over a read begun while the action was on its way", async () => {
    const shown: string[] = [];
    const keep = newest<string>((v) => shown.push(v));
    const removal = deferred<string>();
    const pr = keep.answer(removal.promise);
    // an event makes the screen read again before the removal is done: the read has the state before it
    const read = deferred<string>();
    const pread = keep(read.promise, () => {});
    read.resolve('still there');
    await pread;
    removal.resolve('removed');
    await pr;
    expect(shown).toEqual(['still there', 'removed']);
    // a read begun after the action answered is newer again
    const later = deferred<string>();
    const stale = deferred<string>();
    const pstale = keep(stale.promise, () => {});
    const removal2 = deferred<string>();
    const pr2 = keep.answer(removal2.promise);
    removal2.resolve('removed twice');
    await pr2;
    stale.resolve('before the second removal');
    await pstale;
    const plater = keep(later.promise, () => {});
    later.resolve('after');
    await plater;
    expect(shown).toEqual(['still there', 'removed', 'removed twice', 'after']);
    await expect(keep.answer(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });
});
