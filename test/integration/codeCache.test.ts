// The CLI as bin/mws.js runs it (launch.mjs compiling mws.cjs, scripts/cliBundle.ts), across real
// processes: the first run of a command saves V8's code, the next one uses it (and so leaves it as it
// was), and a damaged cache never stops a command.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exited, listeningBase, runMws, spawnMws } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

/** A search from a cold start, model included, on a machine with both cores busy. */
const SEARCH_MS = 45_000;

const cacheOf = (dir: string, command: string) => readdirSync(dir).filter((f) => f.startsWith(`${command}-`));

describe('the CLI with its code cache', () => {
  it('saves the code of a short command when it ends, and the next run uses it', async () => {
    const cache = tempDir();
    const first = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(first.code, first.err).toBe(0);
    const [file] = cacheOf(cache, 'other');
    expect(file).toBeDefined();
    const saved = { bytes: readFileSync(join(cache, file!)), ino: statSync(join(cache, file!)).ino };
    const second = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(second.out).toBe(first.out);
    // Used: a cache V8 refused, or a damaged one, would have been saved again (a new file renamed in).
    expect(readFileSync(join(cache, file!)).equals(saved.bytes)).toBe(true);
    expect(statSync(join(cache, file!)).ino).toBe(saved.ino);
  });

  it("keeps help out of a command's cache: mws serve --help saves under help's name", async () => {
    const cache = tempDir();
    const help = await runMws(['serve', '--help'], { MWS_CODE_CACHE: cache });
    expect(help.code, help.err).toBe(0);
    expect(cacheOf(cache, 'serve')).toEqual([]);
    expect(cacheOf(cache, 'other')).toHaveLength(1);
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
    const saved = statSync(join(cache, file!)).ino;
    await serve();
    expect(cacheOf(cache, 'serve')).toEqual([file]);
    expect(statSync(join(cache, file!)).ino).toBe(saved);
  });

  it('runs a command past a damaged cache and saves a whole one in its place', async () => {
    const cache = tempDir();
    const good = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    const [file] = cacheOf(cache, 'other');
    writeFileSync(join(cache, file!), 'torn');
    const past = await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(past).toMatchObject({ code: 0, out: good.out });
    expect(statSync(join(cache, file!)).size).toBeGreaterThan(1000);
    const after = statSync(join(cache, file!)).ino;
    await runMws(['--version'], { MWS_CODE_CACHE: cache });
    expect(statSync(join(cache, file!)).ino).toBe(after);
  });

  // The bundle once read word-list's path as an object (every word was a typo) and its quote patterns as
  // Latin-1 bytes (scripts/cliBundle.ts). Each search embeds the demo toolbox first: ~9 s on a busy machine.
  const search = (query: string) => runMws(['search', query, '--demo', '--explain'], { XDG_STATE_HOME: tempDir() }, SEARCH_MS);

  it('searches as the sources do: a real word is not corrected', async () => {
    const bread = await search('bread');
    expect(bread.code, bread.err).toBe(0);
    expect(bread.out).not.toMatch(/typo correction/);
  });

  it('searches as the sources do: a title in typographic quotes is not matched', async () => {
    const quoted = await search('create a file named \u00abcalendar notes\u00bb');
    expect(quoted.code, quoted.err).toBe(0);
    expect(quoted.out).not.toMatch(/^\s+calendar\b/m);
  });
});
