#!/usr/bin/env node
// Runs the conformance runner 0.1.16 (package alias mcp-conformance-0.1.16) on Node 20. Its bundle
// imports `globSync` from "fs", which Node 22 added; a module-loader hook rewrites that one import
// to tinyglobby's globSync. Arguments are the runner's own: node scripts/conformance-runner.mjs client …
import { register } from 'node:module';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const runner = require.resolve('mcp-conformance-0.1.16/dist/index.js');
const glob = await import.meta.resolve('tinyglobby');
register('./conformanceGlobHook.mjs', import.meta.url, { data: { runner: pathToFileURL(runner).href, glob } });
await import(pathToFileURL(runner).href);
