// Fixture servers and the CLI, compiled once to plain JS with esbuild (which tsx already ships), so a
// test spawns `node file.mjs` instead of compiling TypeScript through tsx at every spawn: on a loaded
// 2-core machine that start-up cost alone used to miss the upstream list budget. The CLI is built as
// the product's build makes it (scripts/cliBundle.ts): `launch.mjs` running `mws.cjs` with a code cache.
// vitest's globalSetup (test/globalSetup.ts) builds everything once per run; a helper used outside
// it builds what it needs on first use. Each build writes a temporary file and renames it into place,
// so a reader never sees half a file even if two workers build at once.
import { buildSync } from 'esbuild';
import { buildCli } from '../../scripts/cliBundle.js';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Two levels below the package root, so `new URL('../../out/renderer', import.meta.url)` in the CLI still finds the built window. */
export const BUILD_DIR = join(ROOT, '.test-build');

type Target = { entry: string; out: string };

/** What tests spawn: fixture upstreams (dependencies bundled in: fastest start) and the CLI (its own build: cli). */
export const TARGETS = {
  http: { entry: 'test/fixtures/upstreams/http.ts', out: 'fixtures/http.mjs' },
  stdio: { entry: 'test/fixtures/upstreams/stdio.ts', out: 'fixtures/stdio.mjs' },
  // V8's young generation in a process of its own (test/unit/http/youngGeneration.test.ts): plain JS, so
  // nothing but the fixture grows it.
  youngGrowth: { entry: 'test/fixtures/youngGrowth.ts', out: 'fixtures/youngGrowth.mjs' },
  // launch.mjs, with mws.cjs (from src-main/cli/run.ts) beside it: both made by scripts/cliBundle.ts.
  mws: { entry: 'src-main/cli/launch.ts', out: 'cli/launch.mjs' },
} satisfies Record<string, Target>;

export type TargetName = keyof typeof TARGETS;

function build(t: Target): string {
  const out = join(BUILD_DIR, t.out);
  mkdirSync(dirname(out), { recursive: true });
  if (t === TARGETS.mws) return buildCli(dirname(out)).launch;
  const tmp = `${out}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  buildSync({
    entryPoints: [join(ROOT, t.entry)],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __mwsRequire } from 'node:module'; const require = __mwsRequire(import.meta.url);" },
  });
  renameSync(tmp, out);
  return out;
}

const builtHere = new Set<string>();

/** Builds every target (globalSetup: once per test run). */
export function buildAll(): void {
  for (const t of Object.values(TARGETS)) build(t);
}

/** The compiled file for `name`, built now if no build exists yet. */
export function built(name: TargetName): string {
  const t = TARGETS[name];
  const out = join(BUILD_DIR, t.out);
  if (!existsSync(out) && !builtHere.has(name)) build(t);
  builtHere.add(name);
  return out;
}
