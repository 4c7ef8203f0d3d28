#!/usr/bin/env node
// The `mws` command: runs the built CLI (out/main/cli.js, made by `npm run build` together with the
// desktop app). Nothing is compiled at run time; tests run the sources through tsx instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../out/main/cli.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(`mws: the built CLI is missing (${fileURLToPath(built)}); run npm run build first.\n`);
  process.exit(1);
}
await import(built.href);
