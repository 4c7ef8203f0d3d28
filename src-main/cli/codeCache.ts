// V8's code cache for the CLI, kept between runs. Node 20 keeps no compiled code for ES modules, and
// compiling the CLI's bundle was ~250 of the ~550 ms before `mws serve` listened (docs/research/measured.md).
// So the CLI is also built as one CommonJS file, and this compiles it with `vm.Script` from the code V8
// made for it on the last run of the same command. A cache only ever saves time: one that is missing,
// damaged, refused by V8 or cannot be written just means compiling as usual.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { concatPaged, latin1InPieces, readFilePagedSync } from '../core/pagedBytes.js';

/**
 * `off`: no cache folder; `missing`/`damaged`: nothing usable on disk; `rejected`: V8 refused it (another
 * Node, other flags); `untrusted`: someone else could have written it, so it is neither used nor written.
 */
export type CacheState = 'off' | 'untrusted' | 'missing' | 'damaged' | 'rejected' | 'used';

/** Each file starts with the sha256 of the code after it: a torn or altered file is compiled past, never run. */
const DIGEST_BYTES = 32;

/** Where caches live: `MWS_CODE_CACHE` (a folder, or `off`), else the user's cache folder. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const set = env.MWS_CODE_CACHE;
  if (set === 'off') return undefined;
  if (set) return set;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-working-set', 'code');
}

/**
 * One cache per command (a cache holds the functions its run compiled, and `mws serve` runs other code
 * than `mws report`), named for the bundle it was made from (its sha256, from the build) and the Node
 * that made it. V8 itself only checks that a source has the same length.
 */
export function cacheFileName(command: string | undefined, bundle: string): string {
  const name = command && /^[a-z][a-z-]{0,31}$/.test(command) ? command : 'other';
  const made = `${process.version} ${process.arch} ${bundle}`;
  return `${name}-${createHash('sha256').update(made).digest('hex').slice(0, 16)}.bin`;
}

function digest(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/**
 * Owned by this user and writable by no one else (what ssh asks of its keys): a cache is code this CLI
 * runs, so whoever can change it chooses what runs. Systems without user ids (Windows) are not checked.
 */
function onlyMine(path: string): boolean | 'absent' {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return 'absent';
  }
  const uid = process.getuid?.();
  return uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0);
}

function readCache(path: string): Buffer | 'untrusted' | 'missing' | 'damaged' {
  const folder = onlyMine(dirname(path));
  if (folder === 'absent') return 'missing';
  const mine = onlyMine(path);
  if (!folder || !mine) return 'untrusted';
  let file: Buffer;
  try {
    // Paged: a 2.5 MB block freed after compiling would raise the C allocator's threshold (pagedBytes.ts).
    file = readFilePagedSync(path);
  } catch {
    return 'missing';
  }
  const data = file.subarray(DIGEST_BYTES);
  if (file.length <= DIGEST_BYTES || !digest(data).equals(file.subarray(0, DIGEST_BYTES))) return 'damaged';
  return data;
}

/** Caches kept per command: two installs (or two Nodes) used in turn each keep theirs. */
const KEPT_PER_COMMAND = 3;
/** A temporary file this old was left by a run killed while it saved. */
const STALE_TMP_MS = 60_000;

/**
 * Root writing into a home someone else owns (sudo that keeps HOME) would leave folders the user cannot
 * use afterwards: the nearest folder that exists has to be root's too.
 */
function mayCreate(folder: string): boolean {
  if (process.getuid?.() !== 0) return true;
  for (let dir = folder; ; dir = dirname(dir)) {
    try {
      return statSync(dir).uid === 0;
    } catch {
      if (dirname(dir) === dir) return true;
    }
  }
}

function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a read-only cache is still used
  }
}

/** The KEPT_PER_COMMAND caches of the command used or written last stay, and temporary files of killed runs go. */
function prune(folder: string, name: string): void {
  const sameCommand = new RegExp(`^${name.slice(0, name.lastIndexOf('-'))}-[0-9a-f]{16}\\.bin(\\.\\d+\\.tmp)?$`);
  const now = Date.now();
  const caches: Array<{ file: string; at: number }> = [];
  for (const f of readdirSync(folder)) {
    if (!sameCommand.test(f)) continue;
    const at = statSync(join(folder, f)).mtimeMs;
    if (!f.endsWith('.tmp')) caches.push({ file: f, at });
    else if (now - at > STALE_TMP_MS) unlinkSync(join(folder, f));
  }
  caches.sort((a, b) => b.at - a.at);
  for (const { file } of caches.slice(KEPT_PER_COMMAND)) if (file !== name) unlinkSync(join(folder, file));
}

/** Writes beside, then renames: a reader sees the old file or the whole new one. */
function writeCache(path: string, data: Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    if (!mayCreate(dirname(path))) return;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Made by someone else meanwhile (a shared MWS_CODE_CACHE): not a place to leave code.
    if (onlyMine(dirname(path)) !== true) return;
    writeFileSync(tmp, concatPaged([digest(data), data]), { mode: 0o600 });
    renameSync(tmp, path);
    prune(dirname(path), basename(path));
  } catch {
    // A full disk, a read-only home or another run pruning at the same moment: next run compiles as usual.
    try {
      unlinkSync(tmp);
    } catch {
      // never written
    }
  }
}

export type CachedScript = {
  state: CacheState;
  /** Runs the CommonJS file as `require` would. */
  run: () => void;
  /** Whether this run should save its code: there was none usable, and the folder is the user's own. */
  wantsSave: boolean;
  /** Saves the code V8 holds for the file now (after running it: the functions the run compiled too). Once. */
  save: () => void;
};

/** `bundle` names the file's contents (its sha256 at build time). */
export function compileWithCodeCache(
  file: string,
  bundle: string,
  cacheDir: string | undefined,
  command: string | undefined,
): CachedScript {
  // Read as Latin-1: the bundle's strings are ASCII (charset 'ascii'), and a library's comment with a
  // character past ASCII read as UTF-8 would make V8 keep the whole 3 MB source at two bytes a character.
  // Read paged and decoded in pieces: neither the bytes nor the text passes through the C heap (pagedBytes.ts).
  const source = latin1InPieces(readFilePagedSync(file));
  const path = cacheDir === undefined ? undefined : join(cacheDir, cacheFileName(command, bundle));
  const read = path === undefined ? 'off' : readCache(path);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(typeof read === 'string' ? {} : { cachedData: read }) });
  const state: CacheState = typeof read === 'string' ? read : script.cachedDataRejected ? 'rejected' : 'used';
  // Used is as good as new: pruning keeps the caches used last, not only those written last.
  if (state === 'used') touch(path!);
  // Nothing to save when it was used or is off; an untrusted folder is left alone.
  const wantsSave = state === 'missing' || state === 'damaged' || state === 'rejected';
  let saved = !wantsSave;
  return {
    state,
    wantsSave,
    run: () => {
      const module = { exports: {} };
      const main = script.runInThisContext() as (...args: unknown[]) => void;
      main.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
    },
    save: () => {
      if (saved || path === undefined) return;
      saved = true;
      writeCache(path, script.createCachedData());
    },
  };
}
