// Atomic files through write-file-atomic (temp file in the same folder, fsync, rename, the temp file
// removed on error or exit, writes to one path one at a time), plus what it leaves out: the folder is
// fsync'd after the rename so the new name survives a power cut, and temp files left by kill -9 are
// removed at the next start (removeLeftoverTemps, called once the state folder's lock is held). Text
// made in pieces streams to a temp file of the same kind (writePiecesAtomic): write-file-atomic takes
// only the whole content.
import { lstat, mkdir, open, readdir, realpath, rename, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomInt } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import type { Logger } from '../log.js';
import { encodePaged, readTextPaged } from '../pagedBytes.js';

/** Writes bytes or text atomically: afterwards the path holds the old content or the new, never a part. */
export async function writeFileAtomicSynced(
  path: string,
  data: string | Buffer,
  mode = 0o600,
  opts: { fsync?: boolean } = {},
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await removePlantedLink(path);
  // Text as paged bytes: a string is encoded for the write into a malloc'd block (pagedBytes.ts).
  await writeFileAtomic(path, typeof data === 'string' ? encodePaged(data) : data, { mode, fsync: opts.fsync !== false });
  if (opts.fsync !== false) await fsyncFolder(dirname(path));
}

/**
 * write-file-atomic writes to the real path behind a symlink; a link planted at a state file must be
 * replaced by our file, never written through (test/unit/secrets/secretsAttack.test.ts). Answers what
 * the path held (undefined: nothing).
 */
async function removePlantedLink(path: string): Promise<Stats | undefined> {
  const old = await lstat(path).catch(() => undefined);
  if (old?.isSymbolicLink()) await unlink(path).catch(() => {});
  return old;
}

/** The rename is durable only once the folder is; some systems (Windows) cannot open a folder for it. */
async function fsyncFolder(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    await fh?.close().catch(() => {});
  }
}

/**
 * write-file-atomic names its temp file `<name>.<32-bit hash, in decimal>`, beside its target; earlier
 * versions of this module wrote `<name>.<pid>.<random base 36>.tmp`. A user's own file that merely ends
 * in digits (`notes.json.1`, `a.bin.20240101` with no `a.bin`) is neither.
 */
const ATOMIC_TEMP = /^(.+\.(?:json|bin|txt))\.\d{6,10}$/;
const LEGACY_TEMP = /^.+\.(?:json|bin|txt)\.\d{1,7}(?:\.[a-z0-9]{6,})?\.tmp$/;

function isLeftoverTemp(name: string, names: ReadonlySet<string>): boolean {
  if (LEGACY_TEMP.test(name)) return true;
  const m = ATOMIC_TEMP.exec(name);
  return m !== null && names.has(m[1]!);
}

/**
 * Removes temp files a killed writer left in `dirs` (not recursive), answering how many. Call only
 * while no other process writes there (the state folder's lock is held).
 */
export async function removeLeftoverTemps(dirs: string[], log?: Logger): Promise<number> {
  let removed = 0;
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    const all = new Set(names);
    for (const name of names) {
      if (!isLeftoverTemp(name, all)) continue;
      try {
        await unlink(join(dir, name));
        removed++;
      } catch {
        // gone already, or a folder of that name: not ours to remove
      }
    }
  }
  if (removed > 0) log?.info(`removed ${removed} unfinished temp file(s) left by an earlier run`);
  return removed;
}

/** `compact` writes one line: for large machine-read files (usage.json), where indentation only costs. */
export async function writeJsonAtomic(path: string, value: unknown, mode = 0o600, compact = false): Promise<void> {
  await writeTextAtomic(path, (compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)) + '\n', mode);
}

/**
 * The same for a file the user owns and may keep as a symlink (config.json linked into a dotfiles
 * repository): written at the link's target, so the link stays a link. State files never follow links.
 */
export async function writeJsonAtLinkTarget(path: string, value: unknown, mode = 0o600): Promise<void> {
  await writeJsonAtomic(await realpath(path).catch(() => path), value, mode);
}

/** The same for text already serialized (catalog.json is assembled from per-tool JSON it keeps). */
export async function writeTextAtomic(path: string, text: string, mode = 0o600): Promise<void> {
  await writeFileAtomicSynced(path, text, mode);
}

/** The block pieces are encoded into on their way to the file (writePiecesAtomic). */
export const PIECES_BLOCK_BYTES = 64 * 1024;

/** Writes of one path in flight, so a later one renames its file after an earlier one. */
const piecesWrites = new Map<string, Promise<unknown>>();

/**
 * The same for text produced in pieces, which goes to the file as it comes: each piece is encoded into
 * one block, written out whenever it fills. So a large file is held whole neither as one string (whose
 * encoding holds the event loop for its whole length) nor as bytes, and the producer may yield; at
 * 5,000 tools catalog.json held whole left ~12 MB of old-generation garbage after each save
 * (docs/research/measured.md). A temp file beside the path, fsync'd, renamed over it, the folder
 * fsync'd; removed when the producer or a write fails (one a kill left is removed at the next start,
 * removeLeftoverTemps, once the file itself exists). Writes of one path run one after the other.
 */
export function writePiecesAtomic(
  path: string,
  produce: (write: (piece: string) => Promise<void>) => Promise<void>,
  mode = 0o600,
): Promise<void> {
  const key = resolve(path);
  const before = piecesWrites.get(key) ?? Promise.resolve();
  const mine = before.catch(() => {}).then(() => streamAtomic(path, produce, mode));
  const settled = mine.catch(() => {});
  piecesWrites.set(key, settled);
  void settled.then(() => {
    if (piecesWrites.get(key) === settled) piecesWrites.delete(key);
  });
  return mine;
}

async function streamAtomic(
  path: string,
  produce: (write: (piece: string) => Promise<void>) => Promise<void>,
  mode: number,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const old = await removePlantedLink(path);
  // Named as write-file-atomic names its temp files, so one left by kill -9 is removed at the next start.
  const tmp = `${path}.${randomInt(100_000_000, 2 ** 31)}`;
  const fh = await open(tmp, 'wx', mode);
  let written = false;
  try {
    await fh.chmod(mode); // the mode asked for, whatever the umask
    // Root (sudo mws …) writing a user's state folder keeps the file theirs, as write-file-atomic does.
    if (old?.isFile() && process.getuid?.() === 0) await fh.chown(old.uid, old.gid).catch(() => {});
    const block = Buffer.allocUnsafe(PIECES_BLOCK_BYTES);
    let at = 0;
    const writeAll = async (bytes: Buffer, length: number) => {
      for (let off = 0; off < length;) off += (await fh.write(bytes, off, length - off)).bytesWritten;
    };
    await produce(async (piece) => {
      const room = block.length - at;
      // At most 3 bytes a UTF-16 unit: a piece that surely fits is not measured first.
      if (piece.length * 3 > room) {
        const bytes = Buffer.byteLength(piece);
        if (bytes > room) {
          await writeAll(block, at);
          at = 0;
          if (bytes > block.length) return writeAll(Buffer.from(piece), bytes);
        }
      }
      at += block.write(piece, at);
    });
    await writeAll(block, at);
    await fh.sync();
    written = true;
  } finally {
    await fh.close().catch(() => {});
    if (!written) await unlink(tmp).catch(() => {});
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fsyncFolder(dirname(path));
}

export type ReadResult<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'damaged'; movedTo: string };

/**
 * Reads a JSON file. A file that does not parse (or fails `check`) is moved aside to
 * `<name>.damaged-<time>` with a warning, never silently replaced.
 */
export async function readJsonSafe<T>(path: string, log: Logger, check: (v: unknown) => v is T): Promise<ReadResult<T>> {
  let text: string;
  try {
    text = await readTextPaged(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (check(value)) return { kind: 'ok', value };
  } catch {
    // fall through to moving the file aside
  }
  const movedTo = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(path, movedTo);
  log.warn(`${path} was damaged; it was moved to ${movedTo} and will be rebuilt.`);
  return { kind: 'damaged', movedTo };
}
