// The CLI's code cache (src-main/cli/codeCache.ts): used when whole and made by this Node for this bundle;
// compiled past, never run, when torn, altered or refused; never a reason for a command to fail. V8's
// acceptance across processes is covered by test/integration/codeCache.test.ts.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { cacheFileName, codeCacheDir, compileWithCodeCache } from '../../../src-main/cli/codeCache.js';
import { tempDir } from '../../helpers/app.js';

type Ran = { dirname: string; filename: string; required: string; runs: number; answer: number };
const seen = globalThis as { __codeCacheTest?: Ran };

/** A CommonJS file that reports what `require` would have given it. */
function bundle(dir: string, answer = 42): string {
  const file = join(dir, 'mws.cjs');
  writeFileSync(
    file,
    `function answer() { return ${answer}; }
     globalThis.__codeCacheTest = { dirname: __dirname, filename: __filename, required: typeof require('node:path').join,
       runs: (globalThis.__codeCacheTest?.runs ?? 0) + 1, answer: answer() };
     module.exports = { answer };`,
  );
  return file;
}

/** What the build names a bundle by: its contents' sha256. */
const idOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function runOnce(file: string, cacheDir: string | undefined, command = 'serve'): string {
  const cli = compileWithCodeCache(file, idOf(file), cacheDir, command);
  cli.run();
  cli.save();
  return cli.state;
}

describe('the code cache folder', () => {
  it('is MWS_CODE_CACHE when set, none when it is off, else the user cache folder', () => {
    expect(codeCacheDir({ MWS_CODE_CACHE: '/x/y' })).toBe('/x/y');
    expect(codeCacheDir({ MWS_CODE_CACHE: 'off' })).toBeUndefined();
    expect(codeCacheDir({ XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'mcp-working-set', 'code'));
    expect(codeCacheDir({})).toMatch(/\.cache\/mcp-working-set\/code$/);
  });

  it('names one cache per command and bundle; anything that is not a command name shares one', () => {
    expect(cacheFileName('serve', 'a')).toMatch(/^serve-[0-9a-f]{16}\.bin$/);
    expect(cacheFileName('sign-in', 'a')).toMatch(/^sign-in-[0-9a-f]{16}\.bin$/);
    for (const odd of [undefined, '--help', '../../etc', 'Serve', 'x'.repeat(40)]) expect(cacheFileName(odd, 'a')).toMatch(/^other-/);
    expect(cacheFileName('serve', 'b')).not.toBe(cacheFileName('serve', 'a'));
  });
});

describe('running the CLI with its code cache', () => {
  it('runs the file as require would, saves after the run, and uses what it saved on the next run', () => {
    const dir = tempDir();
    const file = bundle(dir);
    const cache = join(dir, 'cache');
    expect(runOnce(file, cache)).toBe('missing');
    expect(seen.__codeCacheTest).toMatchObject({ dirname: dir, filename: file, required: 'function', answer: 42 });
    const [saved] = readdirSync(cache);
    expect(saved).toBe(cacheFileName('serve', idOf(file)));
    // Only the user reads or writes it: it is code that will run.
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache, saved!)).mode & 0o777).toBe(0o600);
    const runs = seen.__codeCacheTest!.runs;
    expect(runOnce(file, cache)).toBe('used');
    expect(seen.__codeCacheTest).toMatchObject({ runs: runs + 1, answer: 42 });
  });

  it('compiles past a torn or altered cache, runs, and saves a whole one', () => {
    const dir = tempDir();
    const file = bundle(dir);
    const cache = join(dir, 'cache');
    runOnce(file, cache);
    const path = join(cache, readdirSync(cache)[0]!);
    const whole = readFileSync(path);
    const altered = Buffer.from(whole);
    altered[altered.length - 5]! ^= 0xff;
    writeFileSync(path, altered);
    expect(runOnce(file, cache)).toBe('damaged');
    expect(runOnce(file, cache)).toBe('used');
    writeFileSync(path, whole.subarray(0, 20));
    expect(runOnce(file, cache)).toBe('damaged');
    expect(seen.__codeCacheTest?.answer).toBe(42);
    expect(runOnce(file, cache)).toBe('used');
  });

  it("runs when V8 refuses a cache that is whole (another Node's), and replaces it", () => {
    // A source this process has not compiled yet: V8 answers a second compile of the same source from
    // memory and never looks at the cache (the integration test covers a cache across processes).
    const dir = tempDir();
    const file = bundle(dir, 1 + Math.floor(Math.random() * 1e9));
    const cache = join(dir, 'cache');
    const foreign = Buffer.from('not code V8 made for this file');
    mkdirSync(cache);
    writeFileSync(join(cache, cacheFileName('serve', idOf(file))), Buffer.concat([createHash('sha256').update(foreign).digest(), foreign]));
    expect(runOnce(file, cache)).toBe('rejected');
    expect(seen.__codeCacheTest?.answer).toBeGreaterThan(0);
    expect(readFileSync(join(cache, cacheFileName('serve', idOf(file)))).length).toBeGreaterThan(100);
  });

  it("keeps the three newest caches of a command (installs used in turn), other commands' apart, and clears killed runs' leftovers", () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir);
    runOnce(file, cache, 'sign-in');
    const names: string[] = [];
    for (const answer of [1, 2, 3, 4]) {
      bundle(dir, answer);
      names.push(cacheFileName('sign', idOf(file)));
      expect(runOnce(file, cache, 'sign')).toBe('missing');
      expect(seen.__codeCacheTest?.answer).toBe(answer);
      // One second apart, as runs are: the newest are told by their times.
      const at = new Date(Date.now() - (5 - answer) * 1000);
      utimesSync(join(cache, names.at(-1)!), at, at);
    }
    const killed = join(cache, `${names[3]}.999999.tmp`);
    writeFileSync(killed, 'half');
    const old = new Date(Date.now() - 120_000);
    utimesSync(killed, old, old);
    const fresh = join(cache, `${names[2]}.999998.tmp`);
    writeFileSync(fresh, 'another run saving now');
    bundle(dir, 5);
    runOnce(file, cache, 'sign');
    const left = readdirSync(cache);
    expect(left.filter((f) => f.startsWith('sign-in-'))).toHaveLength(1);
    expect(left.filter((f) => /^sign-[0-9a-f]{16}\.bin$/.test(f)).sort()).toEqual(
      [names[2], names[3], cacheFileName('sign', idOf(file))].sort(),
    );
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('keeps a cache that is used over newer ones that are not', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const file = bundle(dir);
    const names = [21, 22, 23].map((answer, i) => {
      bundle(dir, answer);
      runOnce(file, cache, 'sign');
      const name = cacheFileName('sign', idOf(file));
      const at = new Date(Date.now() - (3 - i) * 3_600_000);
      utimesSync(join(cache, name), at, at);
      return name;
    });
    bundle(dir, 21);
    expect(runOnce(file, cache, 'sign')).toBe('used');
    bundle(dir, 24);
    runOnce(file, cache, 'sign');
    const left = readdirSync(cache);
    expect(left).toContain(names[0]);
    expect(left).not.toContain(names[1]);
    expect(left).toContain(names[2]);
  });

  it('never fails a command: no folder, a folder it cannot make, or one it cannot write', () => {
    const dir = tempDir();
    const file = bundle(dir);
    expect(runOnce(file, undefined)).toBe('off');
    writeFileSync(join(dir, 'a-file'), '');
    expect(runOnce(file, join(dir, 'a-file', 'cache'))).toBe('missing');
    const readOnly = join(dir, 'read-only');
    runOnce(file, readOnly);
    for (const f of readdirSync(readOnly)) writeFileSync(join(readOnly, f), 'torn');
    chmodSync(readOnly, 0o500);
    try {
      // Root writes anywhere; elsewhere the folder refuses the new file.
      expect(runOnce(file, readOnly)).toBe('damaged');
    } finally {
      chmodSync(readOnly, 0o700);
    }
    expect(seen.__codeCacheTest?.answer).toBe(42);
    expect(existsSync(join(readOnly, `${readdirSync(readOnly)[0]}.${process.pid}.tmp`))).toBe(false);
  });
});

describe('a cache someone else could have written', () => {
  it('is neither used nor written in a folder or file others can write to', () => {
    const dir = tempDir();
    const file = bundle(dir);
    const cache = join(dir, 'cache');
    runOnce(file, cache);
    const path = join(cache, readdirSync(cache)[0]!);
    const before = readFileSync(path);
    chmodSync(cache, 0o777);
    expect(runOnce(file, cache)).toBe('untrusted');
    chmodSync(cache, 0o700);
    chmodSync(path, 0o666);
    expect(runOnce(file, cache)).toBe('untrusted');
    expect(readFileSync(path).equals(before)).toBe(true);
    chmodSync(path, 0o600);
    expect(runOnce(file, cache)).toBe('used');
  });

  it('writes nothing into a folder made by others, even one made while the command ran', () => {
    const dir = tempDir();
    const file = bundle(dir, 1 + Math.floor(Math.random() * 1e9));
    const cache = join(dir, 'shared');
    const cli = compileWithCodeCache(file, idOf(file), cache, 'serve');
    expect(cli).toMatchObject({ state: 'missing', wantsSave: true });
    cli.run();
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    cli.save();
    expect(readdirSync(cache)).toEqual([]);
    expect(compileWithCodeCache(file, idOf(file), cache, 'serve')).toMatchObject({ state: 'untrusted', wantsSave: false });
  });
});
