// Reads only what a growing log file gained since last time: a byte cursor per file, so a months-long
// log is never re-read. A truncated or replaced file is read again from its start.
import { open, stat } from 'node:fs/promises';

export type Cursor = { offset: number; ino: number };

/**
 * One read's size. A backlog is read to its end in one pass, chunk by chunk, so a chunk bounds the
 * memory one read holds and the work done between two yields to the event loop, not how far it gets.
 */
export const TAIL_CHUNK_BYTES = 256 * 1024;

export async function readNewLines(
  path: string,
  cursor: Cursor | undefined,
  maxBytes = TAIL_CHUNK_BYTES,
): Promise<{ lines: string[]; cursor: Cursor } | undefined> {
  let st;
  try {
    st = await stat(path);
  } catch {
    return undefined;
  }
  let offset = cursor && cursor.ino === st.ino && cursor.offset <= st.size ? cursor.offset : 0;
  if (offset >= st.size) return { lines: [], cursor: { offset, ino: st.ino } };
  const fh = await open(path, 'r');
  try {
    const r = await readChunk(fh, offset, Math.min(st.size - offset, maxBytes));
    offset += r.consumed;
    return { lines: r.lines, cursor: { offset, ino: st.ino } };
  } finally {
    await fh.close();
  }
}

/**
 * Reads everything the file gained up to its size now, in chunks of whole lines; `onChunk` gets each
 * chunk's lines and the cursor after them, and is awaited before the next read (it yields as it likes).
 * Answers the final cursor, or undefined when the file does not exist.
 */
export async function readAllNewLines(
  path: string,
  cursor: Cursor | undefined,
  onChunk: (lines: string[], cursor: Cursor) => Promise<void> | void,
  chunkBytes = TAIL_CHUNK_BYTES,
): Promise<Cursor | undefined> {
  let st;
  try {
    st = await stat(path);
  } catch {
    return undefined;
  }
  let offset = cursor && cursor.ino === st.ino && cursor.offset <= st.size ? cursor.offset : 0;
  if (offset >= st.size) return { offset, ino: st.ino };
  const fh = await open(path, 'r');
  try {
    let size = chunkBytes;
    while (offset < st.size) {
      const r = await readChunk(fh, offset, Math.min(st.size - offset, size));
      if (r.consumed === 0) {
        // One line longer than a chunk: read it whole next time round, unless it is still being written.
        if (size >= st.size - offset) break;
        size *= 2;
        continue;
      }
      size = chunkBytes;
      offset += r.consumed;
      await onChunk(r.lines, { offset, ino: st.ino });
    }
    return { offset, ino: st.ino };
  } finally {
    await fh.close();
  }
}

/** Whole lines only: a line still being written waits for the next read. */
async function readChunk(
  fh: import('node:fs/promises').FileHandle,
  offset: number,
  length: number,
): Promise<{ lines: string[]; consumed: number }> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, offset);
  const end = bytesRead > 0 ? buf.lastIndexOf(0x0a, bytesRead - 1) : -1;
  if (end < 0) return { lines: [], consumed: 0 };
  const text = buf.subarray(0, end).toString('utf8');
  return { lines: text.split('\n').filter((l) => l.length > 0), consumed: end + 1 };
}
