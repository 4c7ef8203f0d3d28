import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Compiles fixture servers and the CLI to plain JS once, so no test pays tsx at every spawn.
    globalSetup: ['test/globalSetup.ts'],
    // Every CLI the suite spawns shares one code cache (src-main/cli/codeCache.ts), kept beside its build,
    // not in the user's cache folder.
    env: { MWS_CODE_CACHE: fileURLToPath(new URL('./.test-build/code-cache', import.meta.url)) },
    // Generous on purpose: the suite must pass on a 2-core machine with both cores busy. Waits inside
    // tests have their own, shorter deadlines with messages (test/helpers/wait.ts), so a failure names
    // what it waited for long before these fire.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's 1 s default is a fixed time that a loaded machine misses; tests still pass their own.
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: 'forks',
    // Integration tests spawn real processes; two cores run two files at a time comfortably.
    maxWorkers: 2,
  },
});
