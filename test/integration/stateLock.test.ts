// One owner per state folder: the running instance holds a lock in its state folder,
// every CLI command finds it through that lock whatever its port, a second instance refuses to start
// naming the first, and a crashed instance's lock is taken over.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exited, runMws, spawnMws, waitForOutput, type Running, listeningBase } from '../helpers/processes.js';
import { connectClient, startApp, tempDir } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { INSTANCE_FILE, lockHolder, StateLock } from '../../src-main/core/store/stateLock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.kill();
});

function serve(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  const r = spawnMws(['serve', ...args], env);
  running.push(r);
  return r;
}

function demoConfig(extra: Record<string, unknown> = {}): { cfg: string; stateDir: string } {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ upstream: { builtin: 'demo' }, stateDir, ...extra }));
  return { cfg, stateDir };
}

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

describe('the state-folder lock', () => {
  it('lets `mws promote` reach an instance on an OS-assigned port (--port 0): the instance lists the tool at once', async () => {
    const { cfg, stateDir } = demoConfig();
    const s = serve(['--config', cfg, '--port', '0']);
    const url = (await waitForOutput(s, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
    const record = JSON.parse(readFileSync(join(stateDir, INSTANCE_FILE), 'utf8')) as {
      pid: number;
      url: string;
      tokenFile: string;
      command: string;
    };
    expect(record).toMatchObject({
      pid: s.proc.pid,
      url: url.replace(/\/mcp$/, ''),
      tokenFile: join(stateDir, 'control-token'),
      command: 'mws serve',
    });

    const c = await connectClient(url, 'auto');
    const r = await runMws(['promote', 'drive_search_files', '--agent', 'default', '--config', cfg]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Promoted drive_search_files/);
    // The instance made the change: it lists the tool and told the client, without a restart.
    expect(names((await c.client.listTools()).tools)).toContain('drive_search_files');
    await c.close();
  });

  it('refuses a second instance on the same folder with a sentence naming the first, and exit code 1', async () => {
    const { cfg, stateDir } = demoConfig();
    const first = serve(['--config', cfg, '--port', '0']);
    const url = await listeningBase(first, 'first mws serve');
    const second = serve(['--config', cfg, '--port', '0']);
    expect(await exited(second, 'the second mws serve')).toBe(1);
    expect(second.stderr()).toContain(`The state folder ${stateDir} is in use by mws serve (pid ${first.proc.pid}, listening on ${url}`);
    expect(second.stderr()).not.toMatch(/\n\s+at /); // one sentence, no stack trace
    expect(first.proc.exitCode).toBe(null);
  });

  it('refuses an in-process second app on the same folder too (the desktop app and `mws serve` share it)', async () => {
    const t = await startApp({ upstream: { builtin: 'demo' } });
    try {
      await expect(startApp({ upstream: { builtin: 'demo' } }, t.stateDir)).rejects.toThrow(
        /is in use by Working Set \(pid \d+, listening on http:\/\/127\.0\.0\.1:\d+/,
      );
    } finally {
      await t.stop();
    }
    expect(await lockHolder(t.stateDir)).toBeUndefined();
    // Released on stop: the next one starts.
    const again = await startApp({ upstream: { builtin: 'demo' } }, t.stateDir);
    await again.stop();
  });

  it('takes over the lock of an instance killed with SIGKILL', async () => {
    const { cfg, stateDir } = demoConfig();
    const first = serve(['--config', cfg, '--port', '0']);
    await waitForOutput(first, /listening on/, 'first mws serve');
    first.proc.kill('SIGKILL');
    await exited(first, 'the killed instance');
    expect(existsSync(join(stateDir, 'instance.lock'))).toBe(true); // left behind by the crash
    const second = serve(['--config', cfg, '--port', '0']);
    await waitForOutput(second, /listening on/, 'the instance taking over');
    expect(second.stderr()).toMatch(/took over the state folder .* from mws serve \(pid \d+\), which is no longer running/);
    const holder = await lockHolder(stateDir);
    expect(holder?.record?.pid).toBe(second.proc.pid);
  });

  it('makes `mws ui` find the demo that `npm run demo` (serve --demo) started, on a config with no upstream', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ stateDir: join(dir, 'state') }));
    const s = serve(['--demo', '--port', '0', '--config', cfg]);
    const base = await listeningBase(s, 'mws serve --demo');
    const r = await runMws(['ui', '--config', cfg]);
    expect(r.err).toBe('');
    expect(r.out.trim()).toMatch(new RegExp(`^${base.replace(/[.]/g, '\\.')}/ui\\?token=`));
  });

  it('never lets a CLI command write the files while an instance holds them: the instance saves what the CLI did', async () => {
    const { cfg, stateDir } = demoConfig();
    const s = serve(['--config', cfg, '--port', '0']);
    await waitForOutput(s, /listening on/, 'mws serve');
    expect((await runMws(['promote', 'mail_send_message', '--config', cfg])).code).toBe(0);
    // Stopping the instance must not overwrite the CLI's change with an older copy.
    s.proc.kill('SIGTERM');
    expect(await exited(s, 'mws serve')).toBe(0);
    const r = await runMws(['report', '--json', '--config', cfg]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('mail_send_message');
    await until(async () => (await lockHolder(stateDir)) === undefined || undefined, 'the lock to be free after the report');
  });

  it('never falls back to the files when the instance holding them does not answer', async () => {
    const { cfg, stateDir } = demoConfig();
    // An "instance" that holds the lock and accepts connections but never answers (hung, or stopped).
    const hung = createServer(() => {});
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
    const lock = await StateLock.acquire(stateDir, { command: 'a hung instance' }, new MemoryLogger());
    writeFileSync(join(stateDir, 'control-token'), 'x\n');
    await lock.listening(`http://127.0.0.1:${(hung.address() as { port: number }).port}`);
    try {
      // The CLI gives a busy instance 15 s to answer before it says so.
      const r = await runMws(['promote', 'drive_search_files', '--config', cfg], {}, 60_000);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        /a hung instance \(pid \d+, listening on http:\/\/127\.0\.0\.1:\d+.*\) holds the state folder .* but did not answer .* Nothing was changed/,
      );
      expect(existsSync(join(stateDir, 'agents'))).toBe(false);
    } finally {
      await lock.release();
      hung.close();
    }
  }, 90_000);

  it('never falls back to the files when the instance holding them answers only with server errors', async () => {
    const { cfg, stateDir } = demoConfig();
    const broken = createHttpServer((_req, res) => res.writeHead(500).end('broken'));
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', () => r()));
    const lock = await StateLock.acquire(stateDir, { command: 'a broken instance' }, new MemoryLogger());
    writeFileSync(join(stateDir, 'control-token'), 'x\n');
    await lock.listening(`http://127.0.0.1:${(broken.address() as { port: number }).port}`);
    try {
      const r = await runMws(['promote', 'drive_search_files', '--config', cfg], {}, 60_000);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/a broken instance \(pid \d+.*\) holds the state folder .* but did not answer \(.*\)\. Nothing was changed/);
      expect(existsSync(join(stateDir, 'agents'))).toBe(false);
    } finally {
      await lock.release();
      broken.close();
    }
  }, 90_000);
});
