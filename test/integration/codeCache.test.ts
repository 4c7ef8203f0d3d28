// The CLI as bin/mws.js runs it (launch.mjs compiling mws.cjs, scripts/cliBundle.ts), across real
// processes: the first run of a command saves V8's code, the next one uses it (and so leaves it as it
// was), and a damaged cache never stops a command.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exited, listeningBase, runMws, spawnMws } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

const cacheOf = (dir: string, command: string) => readdirSync(dir).filter((f) => f.startsWith(`${command}-`));

describe('the CLI with its code cache', () => {
  it('saves the code of a short command when it ends, and the next run uses it', async () => {
    const cache = tempDir();
    const first = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(first.code, first.err).toBe(0);
    const [file] = cacheOf(cache, 'other');
    expect(file).toBeDefined();
    const saved = { bytes: readFileSync(join(cache, file!)), at: statSync(join(cache, file!)).mtimeMs };
    const second = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(second.out).toBe(first.out);
    // Used: a cache V8 refused, or a damaged one, would have been saved again.
    expect(readFileSync(join(cache, file!)).equals(saved.bytes)).toBe(true);
    expect(statSync(join(cache, file!)).mtimeMs).toBe(saved.at);
  });

  it('saves what mws serve compiled when it stops, and the next start uses it', async () => {
    const cache = tempDir();
    const state = tempDir();
    const env = { MWS_CODE_CACHE: cache, XDG_STATE_HOME: state };
    const serve = async () => {
      const r = spawnMws(['serve', '--demo', '--port', '0', '--config', join(state, 'none.json')], env);
      const base = await listeningBase(r);
      // A request first: its state write is in flight as the signal comes (stopSignal.ts).
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      r.proc.kill('SIGTERM');
      const code = await exited(r, 'mws serve after SIGTERM');
      expect(code, `${r.stderr()} signal ${r.proc.signalCode}`).toBe(0);
    };
    await serve();
    const [file] = cacheOf(cache, 'serve');
    expect(file).toBeDefined();
    const saved = statSync(join(cache, file!)).mtimeMs;
    await serve();
    expect(cacheOf(cache, 'serve')).toEqual([file]);
    expect(statSync(join(cache, file!)).mtimeMs).toBe(saved);
  });

  it('runs a command past a damaged cache and saves a whole one in its place', async () => {
    const cache = tempDir();
    const good = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    const [file] = cacheOf(cache, 'other');
    writeFileSync(join(cache, file!), 'torn');
    const past = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(past).toMatchObject({ code: 0, out: good.out });
    expect(statSync(join(cache, file!)).size).toBeGreaterThan(1000);
    const after = statSync(join(cache, file!)).mtimeMs;
    await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(statSync(join(cache, file!)).mtimeMs).toBe(after);
  });

  it('searches as the sources do: real words are not corrected, quoted titles are not matched', async () => {
    // The bundle once read word-list's path as an object (every word was a typo) and its quote patterns
    // as Latin-1 bytes (scripts/cliBundle.ts).
    const env = { XDG_STATE_HOME: tempDir() };
    const bread = await runMws(['search', 'bread', '--demo', '--explain'], env);
    expect(bread.code, bread.err).toBe(0);
    expect(bread.out).not.toMatch(/typo correction/);
    const quoted = await runMws(['search', 'create a file named \u00abcalendar notes\u00bb', '--demo', '--explain'], env);
    expect(quoted.code, quoted.err).toBe(0);
    expect(quoted.out).not.toMatch(/^\s+calendar\b/m);
  });
});
