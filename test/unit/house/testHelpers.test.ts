// The test helpers' waits: each gives up at its deadline with a message saying what it
// waited for, instead of hanging until the whole test times out.
import { describe, expect, it } from 'vitest';
import { until, withDeadline } from '../../helpers/wait.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, spawnNode, waitForOutput } from '../../helpers/processes.js';

describe('until', () => {
  it('answers the first value that is not undefined or false', async () => {
    let n = 0;
    expect(await until(() => (++n >= 3 ? n : undefined), 'n to reach 3', 2_000)).toBe(3);
  });

  it('rejects at its deadline naming what it waited for and the last thing it saw', async () => {
    await expect(until(() => false, 'the moon to turn blue', 100)).rejects.toThrow(
      'Timed out after 100 ms waiting for the moon to turn blue (last seen: false).',
    );
    await expect(
      until(
        () => {
          throw new Error('not yet');
        },
        'a probe that throws',
        100,
      ),
    ).rejects.toThrow(/last seen: not yet/);
  });
});

describe('withDeadline', () => {
  it('rejects a promise that never settles', async () => {
    await expect(withDeadline(new Promise(() => {}), 'a promise that never settles', 100)).rejects.toThrow(
      /Timed out after 100 ms waiting for a promise that never settles/,
    );
  });
});

describe('waitForOutput and exited', () => {
  const script = (body: string) => {
    const f = join(mkdtempSync(join(tmpdir(), 'mws-helper-')), 'p.mjs');
    writeFileSync(f, body);
    return f;
  };

  it('report a process that exits before printing, with its exit code', async () => {
    const r = spawnNode(script('process.exit(0);'));
    await expect(waitForOutput(r, /never/, 'a quiet process', 5_000)).rejects.toThrow(/a quiet process exited with 0 before printing/);
  });

  it('reject at their deadline naming what they waited for', async () => {
    const hang = spawnNode(script('setInterval(() => {}, 1000);'));
    try {
      await expect(waitForOutput(hang, /PORT=/, 'a silent process', 150)).rejects.toThrow(
        /Timed out after 150 ms waiting for a silent process to print/,
      );
      await expect(exited(hang, 'a process that runs on', 150)).rejects.toThrow(
        /Timed out after 150 ms waiting for a process that runs on to exit/,
      );
    } finally {
      await hang.kill();
    }
  });
});
