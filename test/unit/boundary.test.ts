// Electron stays at the edge: nothing reachable from core/ or cli/ may import it.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/processes.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('the Electron boundary', () => {
  it.each(['src-main/core', 'src-main/cli'])('no file under %s imports electron or electron-store', (dir) => {
    const offenders: string[] = [];
    for (const file of files(join(ROOT, dir))) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? m[3] ?? '';
        if (spec === 'electron' || spec.startsWith('electron/') || spec === 'electron-store') offenders.push(`${relative(ROOT, file)} → ${spec}`);
        if (spec.includes('/desktop/') || spec.includes('/preload/')) offenders.push(`${relative(ROOT, file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('file names use one casing: camelCase .ts', () => {
    const bad = [...files(join(ROOT, 'src-main')), ...files(join(ROOT, 'test'))]
      .map((f) => f.split('/').pop()!)
      .filter((n) => !/^[a-z][a-zA-Z0-9]*(\.[a-z]+)*\.ts$/.test(n));
    expect(bad).toEqual([]);
  });
});
