// Append-only JSON Lines file. Each record is one write call, so a crash loses at most the line in flight.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

export class JsonlAppender {
  private stream: WriteStream | undefined;
  constructor(private readonly path: string) {}

  append(record: object): void {
    if (!this.stream) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.stream = createWriteStream(this.path, { flags: 'a', mode: 0o600 });
      this.stream.on('error', () => {
        // A full disk must not take the proxy down; the next append retries with a new stream.
        this.stream = undefined;
      });
    }
    this.stream.write(JSON.stringify(record) + '\n');
  }

  async close(): Promise<void> {
    const s = this.stream;
    this.stream = undefined;
    if (s) await new Promise<void>((resolve) => s.end(resolve));
  }
}
