// Entry for running the CLI from source (tests, `node --import tsx`); bin/mws.js is the installed one.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
