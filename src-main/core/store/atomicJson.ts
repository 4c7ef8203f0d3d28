// Atomic JSON files: write to a temp file and rename, so a crash leaves the old file or the new one.
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../log.js';

/** `compact` writes one line: for large machine-read files (usage.json), where indentation only costs. */
export async function writeJsonAtomic(path: string, value: unknown, mode = 0o600, compact = false): Promise<void> {
  await writeTextAtomic(path, (compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)) + '\n', mode);
}

/** The same for text already serialized (catalog.json is assembled from per-tool JSON it keeps). */
export async function writeTextAtomic(path: string, text: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fh = await open(tmp, 'w', mode);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

/**
 * The same for text produced in pieces: each piece is written as it comes, so a large file is never
 * one string (whose encoding holds the event loop for its whole length) and the producer may yield.
 */
export async function writePiecesAtomic(path: string, produce: (write: (piece: string) => Promise<void>) => Promise<void>, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fh = await open(tmp, 'w', mode);
  try {
    await produce(async (piece) => {
      await fh.write(piece);
    });
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

export type ReadResult<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'damaged'; movedTo: string };

/**
 * Reads a JSON file. A file that does not parse (or fails `check`) is moved aside to
 * `<name>.damaged-<time>` with a warning, never silently replaced.
 */
export async function readJsonSafe<T>(
  path: string,
  log: Logger,
  check: (v: unknown) => v is T,
): Promise<ReadResult<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
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
