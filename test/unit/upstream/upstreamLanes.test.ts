// Per-upstream lanes: changes of one upstream run one at a time, a waiting restart is joined, other
// upstreams are not held up, and an idle lane is dropped.
import { describe, expect, it } from 'vitest';
import { UpstreamLanes } from '../../../src-main/core/upstream/lanes.js';

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
}

describe('UpstreamLanes', () => {
  it('runs one change of an upstream at a time, in order, and joins a waiting restart', async () => {
    const lanes = new UpstreamLanes();
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const g = gate();
    const task = (name: string, hold?: Promise<void>) => async () => {
      most = Math.max(most, ++running);
      order.push(name);
      await hold;
      running--;
      return name;
    };
    const first = lanes.run('s', task('first', g.wait), 'restart');
    await Promise.resolve(); // the first has started: the next restart waits
    const second = lanes.run('s', task('second'), 'restart');
    const joined = lanes.run('s', task('never'), 'restart');
    const off = lanes.run('s', task('off'));
    const other = lanes.run('t', task('other'));
    expect(await other).toBe('other');
    expect(lanes.depth('s')).toBe(3);
    g.open();
    expect(await Promise.all([first, second, joined, off])).toEqual(['first', 'second', 'second', 'off']);
    expect(order).toEqual(['first', 'other', 'second', 'off']);
    expect(most).toBeLessThanOrEqual(2); // 'other' ran beside 'first', never two of 's'
    expect(lanes.depth('s')).toBe(0);
  });

  it('a failed change reaches its caller only, and the lane goes on', async () => {
    const lanes = new UpstreamLanes();
    const bad = lanes.run('s', () => Promise.reject(new Error('nope')));
    const good = lanes.run('s', async () => 'ok');
    await expect(bad).rejects.toThrow('nope');
    expect(await good).toBe('ok');
  });
});
