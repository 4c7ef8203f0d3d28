// Real processes for integration tests: fixture upstreams and `mws serve`, on random loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'upstreams');

export type Running = { proc: ChildProcess; stdout: () => string; stderr: () => string; kill: () => Promise<void> };

export function tsxArgs(file: string, ...args: string[]): string[] {
  return ['--import', 'tsx', file, ...args];
}

export function spawnTs(file: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Running {
  const proc = spawn(process.execPath, tsxArgs(file, ...args), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
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
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** Resolves with the first match of `pattern` on the process's stdout. */
export function waitForOutput(r: Running, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = r.stdout().match(pattern);
      if (m) {
        r.proc.stdout!.off('data', check);
        resolve(m);
      }
    };
    r.proc.stdout!.on('data', check);
    r.proc.once('exit', (code) => reject(new Error(`${what} exited with ${code} before printing ${pattern}: ${r.stderr()}`)));
    check();
  });
}

export type HttpFixture = Running & { url: string; port: number };

export async function startHttpFixture(mode: 'stateless' | 'session' | 'hung'): Promise<HttpFixture> {
  const r = spawnTs(join(FIXTURES, 'http.ts'), [mode]);
  const m = await waitForOutput(r, /PORT=(\d+)/, `fixture ${mode}`);
  const port = Number(m[1]);
  return { ...r, port, url: `http://127.0.0.1:${port}/mcp` };
}

export function stdioFixture(): { command: string; args: string[] } {
  return { command: process.execPath, args: tsxArgs(join(FIXTURES, 'stdio.ts')) };
}

/** A loopback port with nothing listening on it: an upstream that is dead. */
export async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
