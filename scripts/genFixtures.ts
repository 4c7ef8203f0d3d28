// Writes test/fixtures/catalog.json from the built-in demo toolbox (a test keeps the two in step).
import { writeFileSync } from 'node:fs';
import { DEMO_TOOLS } from '../src-main/core/demo/tools.js';

writeFileSync(new URL('../test/fixtures/catalog.json', import.meta.url), JSON.stringify({ tools: DEMO_TOOLS }, null, 2) + '\n');
console.log(`wrote test/fixtures/catalog.json (${DEMO_TOOLS.length} tools)`);
