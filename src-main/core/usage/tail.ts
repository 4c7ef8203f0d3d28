// Reads only what a growing log file gained since last time: a byte cursor per file, so a months-long
// log is never re-read. A truncated or replaced file is read again from its start.
import { open, stat } from 'node:fs/promises';

export type Cursor = { offset: number; ino: number };

/** Upper bound on one read; the rest waits for the next sweep, so a huge backlog never stalls the proxy. */
export const TAIL_MAX_BYTES = 8 * 1024 * 1024;

export async function readNewLines(path: string, cursor: Cursor | undefined): Promise<{ lines: string[]; cursor: Cursor } | undefined> {
  let st;
  try {
    st = await stat(path);
  } catch {
    return undefined;
  }
  let offset = cursor && cursor.ino === st.ino && cursor.offset <= st.size ? cursor.offset : 0;
  if (offset >= st.size) return { lines: [], cursor: { offset, ino: st.ino } };
  const length = Math.min(st.size - offset, TAIL_MAX_BYTES);
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, offset);
    // Only whole lines: a line still being written waits for the next read.
    const end = buf.lastIndexOf(0x0a, bytesRead - 1);
    if (end < 0) return { lines: [], cursor: { offset, ino: st.ino } };
    const text = buf.subarray(0, end).toString('utf8');
    offset += end + 1;
    return { lines: text.split('\n').filter((l) => l.length > 0), cursor: { offset, ino: st.ino } };
  } finally {
    await fh.close();
  }
}
