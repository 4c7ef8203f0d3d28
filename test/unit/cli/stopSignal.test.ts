// Stopping `mws serve` with a signal (src-main/cli/stopSignal.ts), in a process of its own with the real
// signal-exit that write-file-atomic registers while it writes: the stop runs to its end, and a second
// signal ends a stop that hangs.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';

const module = JSON.stringify(new URL('../../../src-main/cli/stopSignal.ts', import.meta.url).href);
const root = JSON.stringify(new URL('../../../package.json', import.meta.url).href);

function run(afterStop: string) {
  const code = `const { untilStopSignal } = await import(${module});
    const { createRequire } = await import('node:module');
    const stopped = untilStopSignal((m) => console.log(m));
    // As while a state file is being written: signal-exit listens after the command did.
    const { onExit } = createRequire(${root})('signal-exit');
    onExit(() => {});
    const deadline = setTimeout(() => console.log('no signal came'), 10_000);
    process.kill(process.pid, 'SIGTERM');
    await stopped;
    ${afterStop}
    clearTimeout(deadline);`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
}

describe('stopping on a signal', () => {
  it('runs the stop to its end when another library listens for the signal too', () => {
    const r = run(`await new Promise((r) => setTimeout(r, 20)); console.log('stopped in order');`);
    expect({ status: r.status, signal: r.signal, out: r.stdout.trim().split('\n') }, r.stderr).toEqual({
      status: 0,
      signal: null,
      out: ['SIGTERM received, stopping.', 'stopped in order'],
    });
  });

  it('ends the process at a second signal while stopping', () => {
    const r = run(`process.kill(process.pid, 'SIGINT'); await new Promise((r) => setTimeout(r, 10_000)); console.log('stop finished');`);
    expect({ status: r.status, out: r.stdout.trim().split('\n') }, r.stderr).toEqual({
      status: 1,
      out: ['SIGTERM received, stopping.', 'SIGINT received again, stopping now.'],
    });
  });
});
