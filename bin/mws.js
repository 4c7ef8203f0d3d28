#!/usr/bin/env node
// The `mws` command. The core is TypeScript run through tsx, so the CLI needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/run.ts');
