// The `mws` CLI as bin/mws.js runs it: `launch.mjs`, which compiles `mws.cjs` (the whole CLI as one
// CommonJS file) with V8's code cache from the last run of the same command (src-main/cli/codeCache.ts).
// Node 20 keeps no compiled code for ES modules between runs. The build (electron.vite.config.ts) and
// the tests (test/helpers/build.ts) both make it here, so the suite runs the CLI users run.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, transformSync, type BuildOptions } from 'esbuild';

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

const COMMON: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // ASCII: V8 keeps a script's source, at two bytes a character if one string holds a character past Latin-1.
  charset: 'ascii',
  logLevel: 'warning',
};

/**
 * First in the file (and so still a strict script: a statement before esbuild's "use strict" would end
 * the directive). `import.meta` has no CommonJS twin: the few uses (finding files beside the bundle) get
 * the file's own URL. `__mwsIsNamespace` is for the default-import patch below.
 */
const BANNER = [
  '"use strict";',
  "const __mwsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  "const __mwsIsNamespace = require('node:util').types.isModuleNamespaceObject;",
].join('\n');

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
  banner: { js: BANNER },
};

/**
 * esbuild gives an ES module's default import of a required package the whole `module.exports`, as Node
 * does for CommonJS; but `require` of an ES-only package (word-list, open) returns its namespace, whose
 * `default` is the export meant. A namespace keeps its own `default`.
 */
const NODE_MODE = 'isNodeMode || !mod || !mod.__esModule';

function patchDefaultImports(code: string): string {
  const helper = code.indexOf('var __toESM = (mod, isNodeMode');
  if (helper < 0) return code; // no default import of a required package
  const at = code.indexOf(NODE_MODE, helper);
  if (at < 0 || at - helper > 600) throw new Error("cliBundle: esbuild's __toESM helper changed; update patchDefaultImports.");
  return `${code.slice(0, at)}isNodeMode && !__mwsIsNamespace(mod) || !mod || !mod.__esModule${code.slice(at + NODE_MODE.length)}`;
}

/**
 * The bundle without its layout: V8 keeps the whole source in the heap for lazy compiling, and the
 * positions of its line ends once a stack is formatted (4.1 MB of source with ~100,000 lines, against
 * 2.9 MB on ~3,000). Names are kept: stacks and `.name` read as in the code. Lines stay short: Node
 * prints the whole source line of an uncaught exception (one line of 344 KB without a limit).
 * Licences stay, at the end.
 */
function withoutLayout(code: string): string {
  return transformSync(code, { minifyWhitespace: true, lineLimit: 1000, legalComments: 'eof', charset: 'ascii', format: 'cjs' }).code;
}

/**
 * Fails the build when a character past ASCII is left in code (esbuild's ASCII output leaves regular
 * expressions as written): launch.ts reads the bundle as Latin-1, which would change what they match.
 * Comments (licences) may hold any character: they are never matched against.
 */
function assertAsciiCode(code: string, file: string): void {
  const bare = transformSync(code, { minifyWhitespace: true, legalComments: 'none', charset: 'ascii', format: 'cjs' }).code;
  const at = bare.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`cliBundle: ${file} has a character past ASCII in code, near: ${bare.slice(Math.max(0, at - 60), at + 20)}`);
}

const LAUNCH: BuildOptions = { ...COMMON, entryPoints: [join(ROOT, 'src-main', 'cli', 'launch.ts')], format: 'esm' };

/** The CLI bundle of `entry` as `outfile`: CommonJS, patched and checked as above. */
export function bundleCli(entry: string, outfile: string): string {
  const built = buildSync({ ...CLI, entryPoints: [entry], outfile, write: false });
  const code = withoutLayout(patchDefaultImports(built.outputFiles[0]!.text));
  assertAsciiCode(code, outfile);
  return code;
}

/**
 * Builds `mws.cjs` and then `launch.mjs` into `dir`, the bundle's sha256 written into the launcher (which
 * names its code cache by it: V8 itself only compares a source's length). Each file is written beside and
 * renamed, so a reader never sees half a file.
 */
export function buildCli(dir: string): { launch: string; bundle: string } {
  const out = { launch: join(dir, 'launch.mjs'), bundle: join(dir, 'mws.cjs') };
  const code = bundleCli(join(ROOT, 'src-main', 'cli', 'run.ts'), out.bundle);
  const sha256 = createHash('sha256').update(code).digest('hex');
  const launch = buildSync({ ...LAUNCH, outfile: out.launch, write: false, define: { MWS_BUNDLE_SHA256: JSON.stringify(sha256) } });
  for (const [file, text] of [
    [out.bundle, code],
    [out.launch, launch.outputFiles[0]!.text],
  ] as const) {
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }
  return out;
}
