// The one serial-queue helper (core/serial.ts): in order, one at a time, a failure kept to its caller.
import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../src-main/core/serial.js';

describe('SerialQueue', () => {
  it("keeps no task's answer once it is idle (a sweep's decisions are not held until the next task)", async () => {
    const q = new SerialQueue();
    const big = { decisions: new Array(1000).fill('x') };
    expect(await q.run(() => big)).toBe(big);
    await q.idle();
    expect(await (q as unknown as { tail: Promise<unknown> }).tail).toBeUndefined();
  });

  it('runs tasks one at a time in the order asked, each failure reaching only its own caller', async () => {
    const q = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running++;
        expect(running).toBe(1);
        log.push(`start ${name}`);
        await new Promise((r) => setImmediate(r));
        log.push(`end ${name}`);
        running--;
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
    const a = q.run(task('a'));
    const b = q.run(task('b', true));
    const c = q.run(task('c'));
    expect(await a).toBe('a');
    await expect(b).rejects.toThrow('b failed');
    expect(await c).toBe('c');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    await q.idle();
  });

  it('idle() waits for what is queued and never rejects', async () => {
    const q = new SerialQueue();
    let done = false;
    void q
      .run(async () => {
        await new Promise((r) => setImmediate(r));
        done = true;
        throw new Error('x');
      })
      .catch(() => {});
    await q.idle();
    expect(done).toBe(true);
    await expect(q.run(() => 5)).resolves.toBe(5);
  });
});
