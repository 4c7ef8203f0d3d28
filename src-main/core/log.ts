// One logger shape for the core; the CLI writes it to stderr, tests collect it. Every message is
// made log-safe (one line, URLs masked, cut) here, so no caller can forget it.
import { logSafe } from './redact.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`mws: ${logSafe(m)}\n`),
  warn: (m) => process.stderr.write(`mws: warning: ${logSafe(m)}\n`),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {} };

export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  info(m: string): void {
    this.lines.push(`info: ${logSafe(m)}`);
  }
  warn(m: string): void {
    this.lines.push(`warn: ${logSafe(m)}`);
  }
}
