// Comments cite the rules in docs/ (inside the repository): every cited page exists, no comment points
// at a document outside it (the old PRODUCT.md §N), and the pages' links between them resolve.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from '../../helpers/processes.js';

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, ext) : ext.test(f) ? [p] : [];
  });
}

/** Relative links (not web addresses, not anchors alone) that name no file or folder, as `page → target`. */
function brokenLinks(pages: string[], text?: string): string[] {
  const broken: string[] = [];
  for (const page of pages) {
    for (const m of (text ?? readFileSync(page, 'utf8')).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      if (!existsSync(join(dirname(page), target))) broken.push(`${relative(ROOT, page)} → ${target}`);
    }
  }
  return broken;
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
    const self = join(ROOT, 'test/unit/house/docsLinks.test.ts');
    const outside = SOURCES.filter((f) => f !== self && /PRODUCT\.md|ARCHITECTURE\.md/.test(readFileSync(f, 'utf8'))).map((f) =>
      relative(ROOT, f),
    );
    expect(outside).toEqual([]);
  });

  it('every relative link of the pages and the README resolves (pages, screenshots, folders, source files)', () => {
    expect(brokenLinks([...files(join(ROOT, 'docs'), /\.md$/), join(ROOT, 'README.md')])).toEqual([]);
  });

  it('the link check bites: a link to a page that is not there is reported', () => {
    const page = join(ROOT, 'docs', 'README.md');
    expect(brokenLinks([page], '[gone](guide/no-such-page.md#x) [ok](guide/cli.md) [web](https://example.com/a.md)')).toEqual([
      'docs/README.md → guide/no-such-page.md',
    ]);
  });

  it('the pages are kept by reader: guide, rules, develop, research', () => {
    const top = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(top).toEqual(['README.md']);
  });
});
