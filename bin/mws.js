#!/usr/bin/env node
// The `mws` command: runs the built CLI (out/main/launch.mjs and the bundle beside it, made by
// `npm run build` together with the desktop app). Nothing is compiled from TypeScript at run time.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const launch = new URL('../out/main/launch.mjs', import.meta.url);
const bundle = new URL('../out/main/mws.cjs', import.meta.url);
for (const built of [launch, bundle]) {
  if (!existsSync(built)) {
    process.stderr.write(`mws: the built CLI is missing (${fileURLToPath(built)}); run npm run build first.\n`);
    process.exit(1);
  }
}
await import(launch.href);
