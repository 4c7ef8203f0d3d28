// The `mws` CLI as bin/mws.js runs it: `launch.mjs`, which compiles `mws.cjs` (the whole CLI as one
// CommonJS file) with V8's code cache from the last run of the same command (src-main/cli/codeCache.ts).
// Node 20 keeps no compiled code for ES modules between runs. The build (electron.vite.config.ts) and
// the tests (test/helpers/build.ts) both make it here, so the suite runs the CLI users run.
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packages compiled into the bundle, so the code cache covers them: the SDK and zod, and those `mws serve`
 * loads before it listens. The rest load from node_modules when a command needs them (and must:
 * word-list names a file beside itself; onnxruntime-node is native).
 */
const CARRIED = new Set([
  'zod',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/server',
  'hono',
  '@hono/node-server',
  'prom-client',
  'jose',
  'lru-cache',
  'shell-quote',
  'proper-lockfile',
  'write-file-atomic',
  'stemmer',
  'fuse.js',
  'minisearch',
  'eventsource',
]);

/** Every dependency not carried (and its subpaths) stays a `require`; a carried package brings its own dependencies. */
function notCarried(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(pkg.dependencies)
    .filter((name) => !CARRIED.has(name))
    .flatMap((name) => [name, `${name}/*`]);
}

/** `import.meta` has no CommonJS twin: the few uses (finding files beside the bundle) get the file's own URL and path. */
const IMPORT_META = "const __mwsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;";

const COMMON: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // ASCII: V8 keeps a script's source, at two bytes a character if one string holds a character past Latin-1.
  charset: 'ascii',
  logLevel: 'warning',
};

const CLI: BuildOptions = {
  ...COMMON,
  entryPoints: [join(ROOT, 'src-main', 'cli', 'run.ts')],
  format: 'cjs',
  // Packages not carried load from node_modules (ES-only ones through Node's require of ES modules).
  external: notCarried(),
  // `import()` becomes a lazy require: a dynamic import inside a script compiled by `vm` has no loader to resolve it.
  supported: { 'dynamic-import': false },
  define: {
    'import.meta.url': '__mwsImportMetaUrl',
    'import.meta.dirname': '__dirname',
    'import.meta.filename': '__filename',
  },
  banner: { js: IMPORT_META },
};

const LAUNCH: BuildOptions = { ...COMMON, entryPoints: [join(ROOT, 'src-main', 'cli', 'launch.ts')], format: 'esm' };

/** Builds `launch.mjs` and `mws.cjs` into `dir`, each written beside and renamed: a reader never sees half a file. */
export function buildCli(dir: string): { launch: string; bundle: string } {
  const out = { launch: join(dir, 'launch.mjs'), bundle: join(dir, 'mws.cjs') };
  for (const [options, file] of [
    [CLI, out.bundle],
    [LAUNCH, out.launch],
  ] as const) {
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    buildSync({ ...options, outfile: tmp });
    renameSync(tmp, file);
  }
  return out;
}
