// The package a user installs: `npm pack`, production dependencies only (offline, from the npm cache),
// then `npx mws --help` and `npx mws serve --demo` from an empty folder. The work is in
// scripts/packCheck.mjs, which .ci/run can also run on its own; `npm test` builds before vitest runs.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';

/** npm pack + an offline `npm ci --omit=dev` + two runs: generous for a loaded 2-core machine. */
const DEADLINE_MS = 240_000;

function runNode(args: string[], cwd = ROOT): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not finish within ${DEADLINE_MS} ms: ${out} ${err}`));
    }, DEADLINE_MS - 5_000);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('the packed package', () => {
  it('installs in an empty folder and runs mws --help and mws serve --demo', { timeout: DEADLINE_MS }, async () => {
    const r = await runNode([join(ROOT, 'scripts', 'packCheck.mjs')]);
    expect(r.err, r.out).toBe('');
    expect(r.out).toContain('npx mws --help: ok');
    expect(r.out).toMatch(/npx mws serve --demo: listening after \d+ ms and answering/);
    expect(r.code).toBe(0);
  });

  it('bin/mws.js says to build when the built CLI is missing', async () => {
    // A copy of bin/ beside an empty out/: the same relative path the installed package uses.
    const dir = mkdtempSync(join(tmpdir(), 'mws-nobuild-'));
    try {
      cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      expect(existsSync(join(dir, 'out'))).toBe(false);
      const r = await runNode([join(dir, 'bin', 'mws.js'), '--help'], dir);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/the built CLI is missing .*run npm run build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
