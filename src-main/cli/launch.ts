// What bin/mws.js runs: the CLI's CommonJS bundle (mws.cjs, beside this file) compiled from the code
// cache of the last run of the same command (codeCache.ts). A run without a usable cache saves one when
// it exits, or after a few seconds for a command that keeps running (`mws serve`).
import { fileURLToPath } from 'node:url';
import { codeCacheDir, compileWithCodeCache } from './codeCache.js';

/** Long enough for `mws serve` to have started and answered its first requests, so their code is in the cache. */
const SAVE_AFTER_MS = 5000;

const cli = compileWithCodeCache(fileURLToPath(new URL('./mws.cjs', import.meta.url)), codeCacheDir(process.env), process.argv[2]);
if (cli.wantsSave) {
  process.once('exit', cli.save);
  setTimeout(cli.save, SAVE_AFTER_MS).unref();
}
cli.run();
