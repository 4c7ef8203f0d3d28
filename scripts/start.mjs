// `npm start`: the desktop app, when the Electron binary is there. Electron downloads its binary on
// first use, which cannot happen on a machine without access to its download host; electron-vite then
// fails with "Error: Electron uninstall" and no next step. Said here in a sentence instead, with the
// headless way to run the same app.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the Electron binary is, or why there is none (never downloads: only looks). */
export function electronBinary(env = process.env, resolve = createRequire(import.meta.url).resolve) {
  if (env.ELECTRON_OVERRIDE_DIST_PATH) return { ok: true, path: env.ELECTRON_OVERRIDE_DIST_PATH };
  let dir;
  try {
    dir = dirname(resolve('electron/package.json'));
  } catch {
    return { ok: false, why: 'the electron package is not installed (run npm install)' };
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile))
    return { ok: false, why: 'the Electron binary is not installed (it downloads on first use, which did not happen here)' };
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? { ok: true, path: bin } : { ok: false, why: `the Electron binary is missing (${bin})` };
}

export const HEADLESS_HINT =
  'Run Working Set without the desktop shell instead: `npm run demo` (the built-in demo toolbox), or `npm run serve` with your config, then `node bin/mws.js ui` for a link to the same window in your browser.';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const e = electronBinary();
  if (!e.ok) {
    process.stderr.write(`npm start: cannot open the desktop app: ${e.why}.\n${HEADLESS_HINT}\n`);
    process.exit(1);
  }
  const child = spawn(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['electron-vite', 'preview', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
}
