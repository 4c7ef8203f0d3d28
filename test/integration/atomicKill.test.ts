// Attack on the store's atomic writes: kill -9 a process in the middle of writing a large file. The
// file must hold the old content or the new one, whole; the temp file the killed writer left is
// removed by the next start of the app on that state folder.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, exited, spawnNode, waitForOutput } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { withDeadline } from '../helpers/wait.js';
import { createApp } from '../../src-main/core/app.js';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';

const WRITER = join(FIXTURES, '..', 'store', 'atomicWriter.ts');
const ROUNDS = 4;

describe('atomic writes under kill -9', () => {
  it('leave the old file or the new one, never a part, and the next start removes the temp file', async () => {
    const stateDir = tempDir('mws-atomic-kill-');
    const path = join(stateDir, 'kill-test.json');
    let tempsSeen = 0;
    let last = -1;
    for (let round = 0; round < ROUNDS; round++) {
      const w = spawnNode(WRITER, [path, '4000000']);
      const upTo = round + 1;
      await waitForOutput(w, new RegExp(`wrote ${upTo}\\n`), `the writer's write ${upTo}`);
      // Killed the moment the next write's temp file appears: in the middle of writing it.
      await withDeadline(
        new Promise<void>((resolve) => {
          const watcher = watch(stateDir, (_event, name) => {
            if (!name || name === 'kill-test.json') return;
            w.proc.kill('SIGKILL');
            watcher.close();
            resolve();
          });
        }),
        'the next write to open its temp file',
      );
      await exited(w, 'the killed writer');
      const text = readFileSync(path, 'utf8');
      const value = JSON.parse(text) as { n: number; letter: string; fill: string };
      expect(value.fill.length).toBe(4_000_000);
      expect(value.fill).toBe(value.letter.repeat(4_000_000));
      expect(value.n).toBeGreaterThanOrEqual(upTo);
      last = value.n;
      tempsSeen += readdirSync(stateDir).filter((f) => f !== 'kill-test.json').length;
    }
    expect(last).toBeGreaterThanOrEqual(ROUNDS);
    // The kills did land mid-write: the writers left temp files (removed by no exit handler under kill -9).
    expect(tempsSeen).toBeGreaterThan(0);
    // A temp file of the old shape (before write-file-atomic) and one of a file this app never writes.
    writeFileSync(join(stateDir, 'catalog.json.123.ab12cd.tmp'), '{"half');
    writeFileSync(join(stateDir, 'notes.md.1'), 'the user’s');
    // Files of the user's that only look like temps (a state folder may be an existing folder).
    const theirs = ['notes.json.1', 'report.txt.2024', 'a.bin.20240101', 'photo.json.2024.old.tmp'];
    for (const f of theirs) writeFileSync(join(stateDir, f), 'the user’s');
    const config = validateConfig({ stateDir, listen: { host: '127.0.0.1', port: 0 }, upstreams: {} }, stateDir);
    const log = new MemoryLogger();
    const app = createApp({ config, clock: systemClock, log, lock: { command: 'a test' } });
    await app.start({ listen: false, schedule: false });
    await app.stop();
    const left = readdirSync(stateDir).filter((f) => /\.json\.\d|\.tmp$/.test(f) && !theirs.includes(f));
    for (const f of theirs) expect(existsSync(join(stateDir, f)), f).toBe(true);
    expect(left, `temp files after the next start (the kills left ${tempsSeen} files beside kill-test.json)`).toEqual([]);
    expect(existsSync(join(stateDir, 'notes.md.1'))).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).n).toBe(last);
  }, 120_000);
});
