// The last lines a stdio server printed on stderr: a server that exits with "GITHUB_TOKEN is not set"
// is shown with that sentence, not only "Connection closed".

const KEEP_LINES = 5;
const MAX_LINE = 300;

export class StderrTail {
  private kept: string[] = [];
  private partial = '';

  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(-MAX_LINE * 4);
    for (const p of parts) this.add(p);
  }

  /** The last lines, oldest first; a line still being written counts. */
  lines(): string[] {
    const all = this.partial.trim() ? [...this.kept, clip(this.partial)] : this.kept;
    return all.slice(-KEEP_LINES);
  }

  reset(): void {
    this.kept = [];
    this.partial = '';
  }

  private add(line: string): void {
    // Terminal colour codes and blank lines say nothing in a status line.
    const clean = line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trim();
    if (!clean) return;
    this.kept.push(clip(clean));
    if (this.kept.length > KEEP_LINES) this.kept.shift();
  }
}

function clip(s: string): string {
  const t = s.trim();
  return t.length > MAX_LINE ? `${t.slice(0, MAX_LINE)}…` : t;
}
