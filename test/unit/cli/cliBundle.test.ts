// The CLI's CommonJS bundle (scripts/cliBundle.ts): an ES-only package's default import is its default
// export, as in the ES build; code past ASCII (which launch.ts would read as Latin-1) fails the build.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from '../../../scripts/cliBundle.js';
import { tempDir } from '../../helpers/app.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/cliBundle/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the CLI bundle', () => {
  it("gives an ES-only package's default export to a default import, static or dynamic", () => {
    // Beside the package root, so the packages resolve from its node_modules as the CLI's do.
    const out = join(ROOT, '.test-build', `defaults-${process.pid}.cjs`);
    writeFileSync(out, bundleCli(join(FIXTURES, 'defaults.ts'), out));
    const r = spawnSync(process.execPath, [out], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout.trim(), r.stderr).toBe('string function');
  });

  it('keeps its lines short, so an uncaught exception prints a line of code, not hundreds of KB', () => {
    const out = join(ROOT, '.test-build', `uncaught-${process.pid}.cjs`);
    const code = bundleCli(join(FIXTURES, 'uncaught.ts'), out);
    writeFileSync(out, code);
    expect(Math.max(...code.split('\n').map((l) => l.length))).toBeLessThan(4000);
    const r = spawnSync(process.execPath, [out], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('uncaught, after checking 2 fields');
    expect(r.stderr.length).toBeLessThan(8000);
  });

  it('refuses a character past ASCII in code, naming where', () => {
    const out = join(tempDir(), 'nonAscii.cjs');
    expect(() => bundleCli(join(FIXTURES, 'nonAscii.ts'), out)).toThrow(/past ASCII in code, near: .*GUILLEMETS/);
  });
});
