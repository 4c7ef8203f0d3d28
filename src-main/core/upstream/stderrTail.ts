// The last lines a stdio server printed on stderr: a server that exits with "GITHUB_TOKEN is not set"
// is shown with that sentence, not only "Connection closed".
import { StderrLines } from './stderrLines.js';

const KEEP_LINES = 5;
const MAX_LINE = 300;

export class StderrTail {
  private kept: string[] = [];
  private readonly split = new StderrLines(MAX_LINE * 4);

  push(chunk: Buffer | string): void {
    for (const line of this.split.push(chunk)) this.add(line);
  }

  /** The last lines, oldest first; a line still being written counts. */
  lines(): string[] {
    const open = this.split.open;
    const all = open ? [...this.kept, clip(open)] : this.kept;
    return all.slice(-KEEP_LINES);
  }

  reset(): void {
    this.kept = [];
    this.split.reset();
  }

  private add(line: string): void {
    this.kept.push(clip(line));
    if (this.kept.length > KEEP_LINES) this.kept.shift();
  }
}

function clip(s: string): string {
  const t = s.trim();
  return t.length > MAX_LINE ? `${t.slice(0, MAX_LINE)}…` : t;
}
