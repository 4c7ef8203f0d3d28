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

/**
 * One JSON object per line on stderr (`mws serve --log-format json`), for a fleet's log collector:
 * `{"ts", "level", "msg", "pid"}`. The message is made log-safe as the text form's is.
 */
export function jsonLogger(write: (line: string) => void = (l) => process.stderr.write(l), now: () => number = Date.now): Logger {
  const line = (level: 'info' | 'warn', m: string) =>
    write(JSON.stringify({ ts: new Date(now()).toISOString(), level, msg: logSafe(m), pid: process.pid }) + '\n');
  return { info: (m) => line('info', m), warn: (m) => line('warn', m) };
}

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
