#!/usr/bin/env node
// The `mws` command. The core is TypeScript run through tsx, so the CLI needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src-main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
