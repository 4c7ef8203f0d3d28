// One logger shape for the core; the CLI writes it to stderr, tests collect it.

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`mws: ${m}\n`),
  warn: (m) => process.stderr.write(`mws: warning: ${m}\n`),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {} };

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(m: string): void {
    this.lines.push(`info: ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`warn: ${m}`);
  }
}
