// A value a client asked its user for, end to end on a real `mws serve`: an upstream whose env names
// `${input:BRAVE_API_KEY}` says "needs a value: BRAVE_API_KEY" (never up on the placeholder) in /control
// and `mws report`; `mws upstream set … --stdin` fills it in, it comes up and its tools are listed; the
// value is in the 0600 secret store and nowhere in config.json, the log or the answers.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, connectClient } from '../helpers/app.js';
import { spawn } from 'node:child_process';
import { built } from '../helpers/build.js';
import { ROOT, exited, runMws, spawnMws, stdioFixture, waitForOutput, type Running } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';
import { createHash } from 'node:crypto';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.kill();
});

const KEY_VALUE = 'sk-test-BRAVE-4711';
const KEY_SHA = createHash('sha256').update(KEY_VALUE).digest('hex');
/**
 * Starts the stdio fixture only when the key reached its environment exactly: "up" proves the value
 * arrived. It compares a hash, so the config holds no copy of the value to find.
 */
const GUARD = `import { createHash } from 'node:crypto'; if (createHash('sha256').update(process.env.BRAVE_API_KEY ?? '').digest('hex') !== '${KEY_SHA}') { console.error('wrong or missing BRAVE_API_KEY'); process.exit(3); } await import('file://' + process.argv[1]);`;

describe('values a client asked for', () => {
  it('an upstream with ${input:KEY} needs a value until `mws upstream set` fills it, then comes up', async () => {
    const dir = tempDir('mws-values-');
    const stateDir = join(dir, 'state');
    const cfg = join(dir, 'config.json');
    const fixture = stdioFixture();
    writeFileSync(
      cfg,
      JSON.stringify(
        {
          stateDir,
          upstreams: {
            brave: {
              command: fixture.command,
              args: ['--input-type=module', '-e', GUARD, ...fixture.args],
              env: { BRAVE_API_KEY: '${input:BRAVE_API_KEY}' },
            },
          },
        },
        null,
        2,
      ),
    );
    const serve = spawnMws(['serve', '--config', cfg, '--port', '0']);
    running.push(serve);
    const url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
    const api = httpControlClient(url.replace(/\/mcp$/, ''), readFileSync(join(stateDir, 'control-token'), 'utf8').trim());

    const waiting = await until(
      async () => (await api.status({})).upstreams.find((u) => u.vendor === 'brave' && u.status === 'needs-value'),
      'brave to say it needs a value',
    );
    expect(waiting).toMatchObject({ status: 'needs-value', needs: ['BRAVE_API_KEY'] });
    expect(waiting.lastError).toMatch(/needs a value: BRAVE_API_KEY/);
    // Headless, the log says it once.
    await until(
      () =>
        serve
          .stderr()
          .includes(
            'Upstream "brave" needs a value: BRAVE_API_KEY. Fill it in on the Upstreams screen, or run `mws upstream set brave BRAVE_API_KEY`.',
          ),
      'the log to say brave needs a value',
    );
    const report = await runMws(['report', '--config', cfg]);
    expect(report.out).toContain('upstream "brave" needs a value: BRAVE_API_KEY (`mws upstream set brave BRAVE_API_KEY`)');

    // A secret on the command line is refused (it would show in `ps` and the shell history).
    const argv = await runMws(['upstream', 'set', 'brave', 'BRAVE_API_KEY', KEY_VALUE, '--config', cfg]);
    expect(argv.code).toBe(2);
    expect(argv.err).toMatch(/looks like a secret.*--stdin/);

    expect(serve.stderr().split('needs a value: BRAVE_API_KEY').length - 1).toBe(1);
    const set = spawnMws(['upstream', 'set', 'brave', 'BRAVE_API_KEY', '--stdin', '--config', cfg]);
    set.proc.stdin!.end(`${KEY_VALUE}\n`);
    expect(await exited(set, 'mws upstream set')).toBe(0);
    expect(set.stdout()).toContain('Saved BRAVE_API_KEY for upstream "brave" in the secret store');
    expect(set.stdout()).toContain('Upstream "brave" is up.');

    const up = await until(
      async () => (await api.status({})).upstreams.find((u) => u.vendor === 'brave' && u.status === 'up'),
      'brave to come up',
    );
    expect(up.needs).toBeUndefined();
    const c = await connectClient(url, 'legacy');
    const found = await c.client.callTool({ name: 'search_tools', arguments: { query: 'echo' } });
    expect(JSON.stringify(found)).toContain('brave__echo');
    await c.client.close();

    // The value is in the secret store (0600) only.
    expect(readFileSync(cfg, 'utf8')).not.toContain(KEY_VALUE);
    expect(readFileSync(cfg, 'utf8')).toContain('${input:BRAVE_API_KEY}');
    expect(statSync(join(stateDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(stateDir, 'secrets.json'), 'utf8')).toContain(KEY_VALUE);
    expect((await api.secretNames({})).names).toEqual(['upstreams.brave.inputs.BRAVE_API_KEY']);
    expect(JSON.stringify(await api.upstreams({}))).not.toContain(KEY_VALUE);
    expect(serve.stderr() + serve.stdout() + set.stderr() + set.stdout()).not.toContain(KEY_VALUE);
  });

  it('asks on a terminal without echoing what is typed (no instance running: straight into the store)', async () => {
    const dir = tempDir('mws-values-tty-');
    const stateDir = join(dir, 'state');
    const cfg = join(dir, 'config.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        stateDir,
        upstreams: { brave: { command: 'brave-mcp-not-installed', env: { BRAVE_API_KEY: '${input:BRAVE_API_KEY}' } } },
      }),
    );
    // `script` gives the command a real terminal (a pty); what it prints is what the person sees.
    const command = [process.execPath, built('mws'), 'upstream', 'set', 'brave', 'BRAVE_API_KEY', '--config', cfg]
      .map((a) => `'${a}'`)
      .join(' ');
    const proc = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const r: Running = { proc, stdout: () => out, stderr: () => err, kill: async () => void proc.kill('SIGKILL') };
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (err += d));
    running.push(r);
    await waitForOutput(r, /\(not shown\): /, 'the prompt');
    proc.stdin.write(`${KEY_VALUE}\r`);
    expect(await exited(r, 'mws upstream set on a terminal')).toBe(0);
    expect(out).toContain('Saved BRAVE_API_KEY for upstream "brave" in the secret store');
    expect(out).toContain('No instance is running');
    expect(out).not.toContain(KEY_VALUE);
    expect(JSON.parse(readFileSync(join(stateDir, 'secrets.json'), 'utf8')).secrets).toEqual({
      'upstreams.brave.inputs.BRAVE_API_KEY': KEY_VALUE,
    });
    expect(readFileSync(cfg, 'utf8')).not.toContain(KEY_VALUE);
  });

  it('`mws import` with no instance running keeps the secret values out of config.json too', async () => {
    const dir = tempDir('mws-values-import-');
    const stateDir = join(dir, 'state');
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ stateDir, upstreams: {} }));
    const r = await runMws([
      'import',
      join(ROOT, 'test', 'fixtures', 'import', 'home', '.cursor', 'mcp.json'),
      '--only',
      'postgres',
      '--config',
      cfg,
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Their secret values went to the secret store, not config.json: postgres: env.PGPASSWORD.');
    expect(readFileSync(cfg, 'utf8')).not.toContain('hunter2');
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.postgres.env).toEqual({
      PGPASSWORD: '${secret:upstreams.postgres.env.PGPASSWORD}',
    });
    expect(statSync(join(stateDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    const list = await runMws(['secrets', '--config', cfg]);
    expect(list.out).toBe('The secret store holds (names only):\n  upstreams.postgres.env.PGPASSWORD\n');
  });
});
