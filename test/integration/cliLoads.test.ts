// What the CLI loads, as a user runs it (bin/mws.js, the built bundle): no undici until something fetches.
// Naming fetch's globals (Response, fetch, Headers) where a module is evaluated loads it, and its start
// compiles a WebAssembly HTTP parser: CPU and memory before `mws serve` listens (and a third of a short
// command's CPU: docs/research/measured.md), and under a `ulimit -v` an error of its own.
// `npm test` builds before vitest runs.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

/** Runs `mws ARGS` with a hook that prints which undici modules Node loaded as the process ends; `stopWhen` its output says so, SIGTERM. */
function undiciLoadedBy(args: string[], stopWhen?: RegExp): Promise<string> {
  const dir = tempDir();
  const hook = join(dir, 'loads.cjs');
  writeFileSync(
    hook,
    `process.on('exit', () => process._rawDebug('LOADED ' + process.moduleLoadList.filter((m) => /undici/.test(m)).join(',')));\n`,
  );
  const proc = spawn(process.execPath, ['--require', hook, join(ROOT, 'bin', 'mws.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HOME: dir,
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_CACHE_HOME: join(dir, 'cache'),
    },
  });
  let out = '';
  const seen = (d: Buffer) => {
    out += d.toString();
    if (stopWhen?.test(out)) proc.kill('SIGTERM');
  };
  proc.stdout.on('data', seen);
  proc.stderr.on('data', seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`mws ${args.join(' ')} did not end within 90 s: ${out}`));
    }, 90_000);
    proc.on('close', () => {
      clearTimeout(timer);
      const line = /^LOADED (.*)$/m.exec(out);
      if (!line) reject(new Error(`mws ${args.join(' ')} ended without the hook's line: ${out}`));
      else resolve(line[1]!);
    });
  });
}

describe('undici', () => {
  it('is not loaded by a short command, nor by mws serve as it starts', async () => {
    expect(await undiciLoadedBy(['--version'])).toBe('');
    expect(await undiciLoadedBy(['serve', '--demo'], /listening on http/)).toBe('');
  }, 120_000);
});
