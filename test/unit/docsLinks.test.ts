// Comments cite the rules in docs/ (inside the repository): every cited page exists, no comment points
// at a document outside it (the old PRODUCT.md §N), and the pages' links between them resolve.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from '../helpers/processes.js';

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, ext) : ext.test(f) ? [p] : [];
  });
}

const SOURCES = ['src-main', 'src-renderer/src', 'test', 'bench', 'scripts'].flatMap((d) => files(join(ROOT, d), /\.(ts|svelte|mjs)$/));

describe('the docs the code cites', () => {
  it('every docs/… page a source file names exists', () => {
    const missing: string[] = [];
    for (const file of SOURCES) {
      for (const m of readFileSync(file, 'utf8').matchAll(/docs\/[\w./-]+\.md/g))
        if (!existsSync(join(ROOT, m[0]))) missing.push(`${relative(ROOT, file)} → ${m[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it('no source file points at a document outside the repository', () => {
    const self = join(ROOT, 'test/unit/docsLinks.test.ts');
    const outside = SOURCES.filter((f) => f !== self && /PRODUCT\.md|ARCHITECTURE\.md/.test(readFileSync(f, 'utf8'))).map((f) =>
      relative(ROOT, f),
    );
    expect(outside).toEqual([]);
  });

  it('links between the pages resolve', () => {
    const broken: string[] = [];
    for (const page of files(join(ROOT, 'docs'), /\.md$/)) {
      for (const m of readFileSync(page, 'utf8').matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)) {
        if (!existsSync(join(dirname(page), m[1]!))) broken.push(`${relative(ROOT, page)} → ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
