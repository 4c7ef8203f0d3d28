// What bin/mws.js runs: the CLI's CommonJS bundle (mws.cjs, beside this file) compiled from the code
// cache of the last run of the same command (codeCache.ts). A run without a usable cache saves one when
// it ends well, or after a few seconds for a command that keeps running (`mws serve`): a command that
// failed early compiled little, and its cache would stand in for a full run's from then on.
import { fileURLToPath } from 'node:url';
import { codeCacheDir, compileWithCodeCache } from './codeCache.js';
import { holdYoungGeneration } from '../core/http/youngGeneration.js';

/** The bundle's sha256, written in by the build (scripts/cliBundle.ts). */
declare const MWS_BUNDLE_SHA256: string;

/** Long enough for `mws serve` to have started and answered its first requests, so their code is in the cache. */
const SAVE_AFTER_MS = 5000;

const args = process.argv.slice(2);
/** `mws serve --help` runs little of serve: its cache would stand in for serve's. Help and version share one. */
const command = args.some((a) => a === '--help' || a === '-h' || a === '--version') ? undefined : args[0];

// `mws serve` runs for months: V8's young generation is held at its first size through module loading
// and the start, before anything is compiled (core/http/youngGeneration.ts).
const serving = command === 'serve';
if (serving) holdYoungGeneration();

const cli = compileWithCodeCache(
  fileURLToPath(new URL('./mws.cjs', import.meta.url)),
  MWS_BUNDLE_SHA256,
  codeCacheDir(process.env),
  command,
);
/** Saved with the flags it was compiled with: V8 refuses a cache made under other flags. */
const save = (): void => {
  if (serving) holdYoungGeneration();
  cli.save();
};
if (cli.wantsSave) {
  process.once('exit', (code) => {
    if (code === 0) save();
  });
  setTimeout(save, SAVE_AFTER_MS).unref();
}
cli.run();
