// Entry for running the CLI from source (tests, `node --import tsx`); bin/mws.js is the installed one.
import { main } from './main.js';

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
