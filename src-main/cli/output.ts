// Where the CLI reports: results to stdout, problems to stderr, once each.
import { MwsError } from '../core/errors.js';
import { printable } from '../core/printable.js';
import { errorPath, isDiskFull, saveFailed } from '../core/store/writeFailure.js';

/** `outBytes`: UTF-8 text written as it is (a result of megabytes, never decoded); without it, `out` gets the text. */
export type Io = { out: (s: string) => void; err: (s: string) => void; outBytes?: (b: Uint8Array) => void };

export const processIo: Io = {
  out: (s) => process.stdout.write(s.endsWith('\n') ? s : s + '\n'),
  outBytes: (b) => {
    process.stdout.write(b);
    if (b[b.length - 1] !== 0x0a) process.stdout.write('\n');
  },
  err: (s) => process.stderr.write(s.endsWith('\n') ? s : s + '\n'),
};

/** Exit code 2 for what the user must fix (config, arguments), 1 for everything else. */
export function reportError(io: Io, err: unknown): number {
  if (err instanceof MwsError) {
    // A message may quote what a client's file or an upstream said: its control characters are escaped.
    io.err(`mws: ${err.message.split('\n').map(printable).join('\n')}`);
    return err.code === 'config_invalid' || err.code === 'usage' || err.code === 'config_unreadable' ? 2 : 1;
  }
  // A full disk is the machine's state, not a bug: one sentence, no stack.
  if (isDiskFull(err)) {
    io.err(`mws: ${saveFailed(err, 'what this command wrote', errorPath(err) ?? 'the state folder').message}`);
    return 1;
  }
  io.err(`mws: ${(err as Error)?.stack ?? String(err)}`);
  return 1;
}
