// The CLI's entry: built into out/main/mws.cjs, which bin/mws.js runs through launch.ts; tests build it the same way.
import { main } from './main.js';

/** Output written just before the end gets this long to reach a pipe before the process exits. */
const EXIT_GRACE_MS = 200;

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// No top-level await: the CLI is also built as CommonJS (launch.ts), which has none.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // A command that has finished is done, even if a library left a keep-alive socket open (the SDK's
  // HTTP client can hold one to an upstream after it closed): exit rather than hang a script or CI.
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
});
