// Append-only JSON Lines file. Records are queued and written together right after the current
// I/O turn (setImmediate), so the write is off the path of the call it records; a crash loses at
// most the records of that one turn.
import { closeSync, createWriteStream, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

export class JsonlAppender {
  private stream: WriteStream | undefined;
  private pending: string[] = [];
  private scheduled = false;
  constructor(private readonly path: string) {}

  append(record: object): void {
    this.pending.push(JSON.stringify(record) + '\n');
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.writePending());
  }

  private open(): WriteStream {
    if (!this.stream) {
      mkdirSync(dirname(this.path), { recursive: true });
      dropTornLastLine(this.path);
      const s = createWriteStream(this.path, { flags: 'a', mode: 0o600 });
      s.on('error', () => {
        // A full disk must not take the proxy down; the next flush retries with a new stream.
        if (this.stream === s) this.stream = undefined;
      });
      this.stream = s;
    }
    return this.stream;
  }

  private writePending(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.open().write(text);
  }

  /** Resolves once every record appended so far is written to the file. */
  async flush(): Promise<void> {
    this.writePending();
    const s = this.stream;
    if (s) await new Promise<void>((resolve, reject) => s.write('', (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    this.writePending();
    const s = this.stream;
    this.stream = undefined;
    if (s) await new Promise<void>((resolve) => s.end(resolve));
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
