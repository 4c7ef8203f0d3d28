// `mws` as a user runs it: a real process, real config files, real signals.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';
import { connectClient, tempDir, textOf } from '../helpers/app.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.kill();
});

function mws(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  const r = spawnTs(MWS, args, env);
  running.push(r);
  return r;
}
function exitCode(r: Running): Promise<number | null> {
  return new Promise((resolve) => {
    if (r.proc.exitCode !== null) return resolve(r.proc.exitCode);
    r.proc.once('exit', (code) => resolve(code));
  });
}

describe('mws serve', () => {
  it('serves the demo toolbox, prints where, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir();
    const r = mws(['serve', '--demo', '--port', '0', '--config', join(dir, 'none.json')], { XDG_STATE_HOME: dir });
    const m = await waitForOutput(r, /listening on (http:\/\/\S+\/mcp)/, 'mws serve');
    expect(r.stdout()).toMatch(/claude mcp add --transport http toolbox http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const c = await connectClient(m[1]!, 'auto');
    const r2 = await c.client.callTool({ name: 'call_tool', arguments: { name: 'calendar_list_calendars', arguments: {} } });
    expect(textOf(r2)).toContain('results');
    await c.close();
    r.proc.kill('SIGTERM');
    expect(await exitCode(r)).toBe(0);
  });

  it('takes the config from $MWS_CONFIG and lists its pins', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'c.json');
    writeFileSync(cfg, JSON.stringify({ upstream: { builtin: 'demo' }, stateDir: join(dir, 's'), pins: ['drive_search_files'] }));
    const r = mws(['serve', '--port', '0'], { MWS_CONFIG: cfg });
    const m = await waitForOutput(r, /listening on (http:\/\/\S+\/mcp)/, 'mws serve');
    const c = await connectClient(m[1]!, 'legacy');
    expect((await c.client.listTools()).tools.map((x) => x.name)).toContain('drive_search_files');
    await c.close();
  });

  it('refuses a bad field with its path, exit code 2, and leaves the file as it was', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'c.json');
    const text = JSON.stringify({ agents: [{ id: 'x', cap: 9000 }] });
    writeFileSync(cfg, text);
    const r = mws(['serve', '--config', cfg]);
    expect(await exitCode(r)).toBe(2);
    expect(r.stderr()).toMatch(/"agents\[0\]\.cap" must be a whole number from 1 to 500 \(got 9000\)/);
    expect(readFileSync(cfg, 'utf8')).toBe(text);
  });

  it('refuses a non-loopback listen host at start', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'c.json');
    writeFileSync(cfg, JSON.stringify({ listen: { host: '192.168.1.5' } }));
    const r = mws(['serve', '--config', cfg]);
    expect(await exitCode(r)).toBe(2);
    expect(r.stderr()).toMatch(/listen\.host/);
  });
});

describe('mws init', () => {
  it('writes a valid starting config and never overwrites one', async () => {
    const cfg = join(tempDir(), 'sub', 'config.json');
    const first = mws(['init', '--config', cfg]);
    expect(await exitCode(first)).toBe(0);
    expect(existsSync(cfg)).toBe(true);
    const { validateConfig } = await import('../../src-main/core/config/validate.js');
    expect(() => validateConfig(JSON.parse(readFileSync(cfg, 'utf8')), '/tmp/s')).not.toThrow();
    // Editors complete the file from the package's config.schema.json, named in "$schema".
    const written = JSON.parse(readFileSync(cfg, 'utf8')) as { $schema: string; version: number };
    expect(existsSync(fileURLToPath(written.$schema)) && written.$schema.endsWith('/config.schema.json')).toBe(true);
    expect(written.version).toBe(1);
    writeFileSync(cfg, '{"pins":["mine"]}');
    const second = mws(['init', '--config', cfg]);
    expect(await exitCode(second)).toBe(1);
    expect(second.stderr()).toMatch(/already exists/);
    expect(readFileSync(cfg, 'utf8')).toBe('{"pins":["mine"]}');
  });

  it('answers an unknown command with usage and exit code 2', async () => {
    const r = mws(['frobnicate']);
    expect(await exitCode(r)).toBe(2);
    expect(r.stderr()).toMatch(/There is no command "frobnicate"/);
  });
});
