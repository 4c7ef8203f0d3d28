// File names use one casing, and "core" names one thing (src-main/core). Kept from the old boundary tests
// when the import checks moved to ESLint (test/unit/house/importBoundaries.test.ts).
import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/processes.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('file names', () => {
  it('use one casing: camelCase .ts', () => {
    const bad = [...files(join(ROOT, 'src-main')), ...files(join(ROOT, 'test'))]
      .map((f) => f.split('/').pop()!)
      .filter((n) => !/^[a-z][a-zA-Z0-9]*(\.[a-z]+)*\.ts$/.test(n));
    expect(bad).toEqual([]);
  });

  it('has no file named core.ts: "core" is src-main/core', () => {
    expect(files(join(ROOT, 'src-main')).map((f) => f.split('/').pop())).not.toContain('core.ts');
  });
});
