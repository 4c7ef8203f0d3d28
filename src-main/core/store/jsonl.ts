// Append-only JSON Lines file. Each record is written to the file (the kernel's page cache) before
// append() returns, so a record the caller goes on to acknowledge survives kill -9 of this process
// (a record waiting for the next I/O turn would be lost with it). One small write(2) per record, or per
// batch (appendAll). A write that fails (a full disk) drops what it did not write whole, counts it and
// tells `onDrop`; the proxy goes on.
// With `rotate`, the size is decided at write time: a record that would take the file past the bound
// first moves the file aside (replacing the one moved before), so the file never exceeds the bound and
// the two together never exceed twice it, however fast records come. Before a record the path is
// checked to still name the open file (at most every PATH_CHECK_MS), so a file deleted or moved by
// someone else is made again.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export type AppenderOptions = {
  /** A record could not be written (the error, and how many were dropped so far). */
  onDrop?: (err: Error, dropped: number) => void;
  /** Keep the file within `maxBytes()` (read at each write, so a changed setting applies at once) by moving it to `to`. */
  rotate?: { to: string; maxBytes: () => number };
  /** Milliseconds on a steady clock (tests inject one). */
  now?: () => number;
};

/**
 * How often the path is looked at again: a stat before every record was a syscall on each proxied
 * call's path (figures in docs/research/measured.md). Records written within this long after someone
 * else deletes or moves the file go to the file they moved or deleted.
 */
export const PATH_CHECK_MS = 100;

export class JsonlAppender {
  private fd: number | undefined;
  /** The open file's inode and size, kept as records are written. */
  private ino = 0;
  private size = 0;
  /** When the path was last seen to name the open file. */
  private checkedAt = -Infinity;
  private droppedCount = 0;
  /** Why the last record was dropped. */
  lastError: Error | undefined;
  constructor(
    private readonly path: string,
    private readonly opts: AppenderOptions = {},
  ) {}

  /** Records that could not be written since this appender was made. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Writes the record now; answers whether it was written. */
  append(record: object): boolean {
    return this.writeLines([JSON.stringify(record) + '\n']) === 1;
  }

  /**
   * Writes the records now, in order, in one write(2) when the file has no bound (a batch of 500
   * records was 500 writes); answers how many were written whole.
   */
  appendAll(records: readonly object[]): number {
    if (this.opts.rotate) {
      let n = 0;
      for (const r of records) if (this.append(r)) n++;
      return n;
    }
    return records.length === 0 ? 0 : this.writeLines(records.map((r) => JSON.stringify(r) + '\n'));
  }

  private writeLines(lines: readonly string[]): number {
    const buf = Buffer.from(lines.length === 1 ? lines[0]! : lines.join(''));
    let off = 0;
    try {
      let fd = this.open();
      const rotate = this.opts.rotate;
      if (rotate) {
        const max = rotate.maxBytes();
        if (buf.length > max) throw new Error(`a record of ${buf.length} bytes is larger than the file's bound of ${max} bytes`);
        if (this.size > 0 && this.size + buf.length > max) {
          // Rare, so the path is looked at first: a file someone else moved or deleted since the last
          // look is not the one to move aside (its size is not this one's either).
          this.checkedAt = -Infinity;
          fd = this.open();
        }
        if (this.size > 0 && this.size + buf.length > max) {
          // Closed before the rename: a system that cannot rename an open file can rename a closed one.
          this.closeFd();
          renameSync(this.path, rotate.to);
          fd = this.open();
        }
      }
      // A regular file takes the whole buffer in one write but for a full disk; loop for the rest.
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      this.size += buf.length;
      return lines.length;
    } catch (err) {
      // The lines written whole before the failure stay in the file; the rest are dropped.
      let whole = 0;
      for (let bytes = 0; whole < lines.length; whole++) {
        bytes += Buffer.byteLength(lines[whole]!);
        if (bytes > off) break;
      }
      this.droppedCount += lines.length - whole;
      this.lastError = err as Error;
      // Part of a line may be in the file: open again next time, which cuts a torn tail off.
      this.closeFd();
      this.opts.onDrop?.(err as Error, this.droppedCount);
      return whole;
    }
  }

  private open(): number {
    const now = this.opts.now?.() ?? performance.now();
    // Deleted or moved away by someone else since it was last looked at: write to a new file at the path.
    if (this.fd !== undefined && now - this.checkedAt >= PATH_CHECK_MS) {
      this.checkedAt = now;
      if (statSync(this.path, { throwIfNoEntry: false })?.ino !== this.ino) this.closeFd();
    }
    if (this.fd === undefined) {
      this.checkedAt = now;
      mkdirSync(dirname(this.path), { recursive: true });
      dropTornLastLine(this.path);
      const fd = openSync(this.path, 'a', 0o600);
      const st = fstatSync(fd);
      this.fd = fd;
      this.ino = st.ino;
      this.size = st.size;
    }
    return this.fd;
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed, or the disk is gone: nothing more to do with this descriptor
    }
    this.fd = undefined;
  }

  /** Every record appended so far is written already (kept for callers that wait for it). */
  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.closeFd();
  }
}

/**
 * A crash mid-write leaves a last line without its newline; the next record appended would be glued
 * to it and lost with it. Before appending, that torn tail is cut off, so every record starts on its
 * own line. (The torn line never parsed: nothing readable is lost.)
 */
export function dropTornLastLine(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return; // no file yet
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] === 0x0a) return;
    // Look back for the end of the last whole line, a block at a time.
    const block = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - block.length);
      const n = readSync(fd, block, 0, end - start, start);
      const nl = block.subarray(0, n).lastIndexOf(0x0a);
      if (nl >= 0) {
        ftruncateSync(fd, start + nl + 1);
        return;
      }
      end = start;
    }
    ftruncateSync(fd, 0);
  } finally {
    closeSync(fd);
  }
}
