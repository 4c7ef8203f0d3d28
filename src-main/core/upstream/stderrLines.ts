// A server's stderr arrives in chunks that split lines anywhere: this gives whole lines, without
// terminal colour codes, and keeps the line still being written (bounded) until its end arrives.

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

export class StderrLines {
  private partial = '';

  /** `maxOpen`: how much of an unfinished line is kept (a server that never prints a newline). */
  constructor(private readonly maxOpen: number) {}

  /** The whole, non-blank lines a chunk completes, colour codes removed and trailing space trimmed. */
  push(chunk: Buffer | string): string[] {
    const parts = (this.partial + chunk.toString()).split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(-this.maxOpen);
    return parts.map((line) => line.replace(ANSI, '').trimEnd()).filter((line) => line.trim() !== '');
  }

  /** The line still being written ('' when none). */
  get open(): string {
    return this.partial.trim() ? this.partial : '';
  }

  reset(): void {
    this.partial = '';
  }
}
