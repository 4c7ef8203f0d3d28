// Real processes for integration tests: fixture upstreams and `mws`, on OS-assigned loopback ports.
// Fixtures and the CLI run as plain JS compiled once (helpers/build.ts), not through tsx per spawn.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { built } from './build.js';
import { WAIT_MS, WaitTimeout } from './wait.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'upstreams');
/** The CLI's source entry (what `bin/mws.js` runs). Tests spawn its compiled twin through `spawnMws`. */
export const MWS_SOURCE = join(ROOT, 'src-main', 'cli', 'run.ts');

export type Running = { proc: ChildProcess; stdout: () => string; stderr: () => string; kill: () => Promise<void> };

export function tsxArgs(file: string, ...args: string[]): string[] {
  return ['--import', 'tsx', file, ...args];
}

/** Node's arguments for a script: plain JS runs as is; TypeScript goes through tsx (slow: prefer a built file). */
function nodeArgs(file: string, args: string[]): string[] {
  return /\.[cm]?js$/.test(file) ? [file, ...args] : tsxArgs(file, ...args);
}

/** The process's output is kept; `kill` sends SIGTERM, then SIGKILL if it has not exited within the wait deadline. */
export function spawnNode(file: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Running {
  const proc = spawn(process.execPath, nodeArgs(file, args), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    kill: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const hard = setTimeout(() => proc.kill('SIGKILL'), WAIT_MS);
        proc.once('exit', () => {
          clearTimeout(hard);
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
}

/** Kept for existing tests: runs a TypeScript file (a `.ts` path with a built twin is better spawned through `spawnMws`/fixtures). */
export function spawnTs(file: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Running {
  return spawnNode(file === MWS_SOURCE ? built('mws') : file, args, env);
}

/** `mws ARGS` as a user runs it, from the compiled CLI. */
export function spawnMws(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  return spawnNode(built('mws'), args, env);
}

/** The exit code of a process (null if a signal ended it), within the wait deadline. */
export function exited(r: Running, what = 'the process', ms = WAIT_MS): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (r.proc.exitCode !== null || r.proc.signalCode !== null) return resolve(r.proc.exitCode);
    const timer = setTimeout(() => reject(new WaitTimeout(`${what} to exit; stderr: ${r.stderr().slice(-500)}`, ms)), ms);
    r.proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Runs `mws ARGS` to the end: its exit code and output. */
export async function runMws(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  ms = WAIT_MS,
): Promise<{ code: number | null; out: string; err: string }> {
  const r = spawnMws(args, env);
  const code = await exited(r, `mws ${args.join(' ')}`, ms);
  return { code, out: r.stdout(), err: r.stderr() };
}

/** The base URL (`http://127.0.0.1:PORT`, no path) that a `mws serve` prints once it listens. */
export async function listeningBase(r: Running, what = 'mws serve', ms = WAIT_MS): Promise<string> {
  return (await waitForOutput(r, /listening on (http:\/\/\S+)\/mcp/, what, ms))[1]!;
}

/** Resolves with the first match of `pattern` on the process's stdout; rejects if it exits first or after the deadline. */
export function waitForOutput(r: Running, pattern: RegExp, what: string, ms = WAIT_MS): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      r.proc.stdout!.off('data', check);
      r.proc.off('exit', onExit);
    };
    const check = () => {
      const m = r.stdout().match(pattern);
      if (m) {
        done();
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      // Output still in the pipe arrives before 'exit' in practice; look once more before failing.
      check();
      done();
      reject(new Error(`${what} exited with ${code} before printing ${pattern}: ${r.stderr()}`));
    };
    timer = setTimeout(() => {
      done();
      reject(new WaitTimeout(`${what} to print ${pattern}; stdout: ${r.stdout().slice(-300)} stderr: ${r.stderr().slice(-500)}`, ms));
    }, ms);
    r.proc.stdout!.on('data', check);
    r.proc.once('exit', onExit);
    check();
  });
}

export type HttpFixture = Running & { url: string; port: number };

export async function startHttpFixture(mode: 'stateless' | 'session' | 'hung'): Promise<HttpFixture> {
  const r = spawnNode(built('http'), [mode]);
  const m = await waitForOutput(r, /PORT=(\d+)/, `fixture ${mode}`);
  const port = Number(m[1]);
  return { ...r, port, url: `http://127.0.0.1:${port}/mcp` };
}

export function stdioFixture(): { command: string; args: string[] } {
  return { command: process.execPath, args: [built('stdio')] };
}

/** A loopback port with nothing listening on it: an upstream that is dead. */
export async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
