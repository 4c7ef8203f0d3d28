// Append-only JSON Lines file. Records are queued and written together right after the current
// I/O turn (setImmediate), so the write is off the path of the call it records; a crash loses at
// most the records of that one turn.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
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
