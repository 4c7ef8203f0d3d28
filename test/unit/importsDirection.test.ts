// Imports in src-main/core flow one way: upstream → toolbox → search / working set / approvals / usage
// → meta-tools → proxy → control → http (the edge they mount on), with shared types and helpers in leaf modules below them all. A
// newcomer can read the folders bottom-up; a back-edge (a lower folder importing a higher one) or a
// cycle between two folders of one layer fails here, like the Electron boundary test.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/processes.js';

const CORE = join(ROOT, 'src-main/core');

/** Folders of src-main/core by layer, lowest first. '.' is the files directly in core/ (leaf helpers). */
export const LAYERS: string[][] = [
  ['.', 'config', 'store', 'demo', 'secrets'],
  ['upstream'],
  ['toolbox'],
  ['search', 'workingset', 'approvals', 'usage', 'import'],
  ['metaTools'],
  ['proxy'],
  ['control'],
  // The HTTP edge: MCP handling (proxy) and control mount on it.
  ['http'],
];
/**
 * Back-edges another change removes, each with why it is still here. The test fails when one is gone,
 * so the list only shrinks.
 */
const KNOWN: Record<string, string> = {};

/** The composition root wires every layer together; nothing imports it. */
const ROOT_FILES = new Set(['app.ts']);

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** A core file's folder ('.' for core/ itself), as LAYERS names it. */
function folderOf(rel: string): string {
  const d = dirname(rel);
  return d === '.' ? '.' : d.split('/')[0]!;
}

/** Every import between two core files: [from, to], both relative to core/. */
export function coreImports(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const file of files(CORE)) {
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? '';
      if (!spec.startsWith('.')) continue;
      const target = relative(CORE, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue;
      out.push([relative(CORE, file), target]);
    }
  }
  return out;
}

/**
 * The edges that break the layering: to a higher layer, into the composition root, or between two
 * folders of one layer in both directions (a folder cycle). Folders missing from `layers` are named too.
 */
export function backEdges(edges: Array<[string, string]>, layers: string[][]): string[] {
  const rank = new Map(layers.flatMap((fs, i) => fs.map((f) => [f, i] as const)));
  const bad: string[] = [];
  const sideways = new Map<string, string[]>();
  for (const [from, to] of edges) {
    if (ROOT_FILES.has(from)) continue;
    if (ROOT_FILES.has(to)) {
      bad.push(`${from} → ${to} (the composition root)`);
      continue;
    }
    const a = folderOf(from);
    const b = folderOf(to);
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra === undefined || rb === undefined) {
      bad.push(`${from} → ${to} (folder ${ra === undefined ? a : b} has no layer in LAYERS)`);
      continue;
    }
    if (a === b) continue;
    if (rb > ra) bad.push(`${from} → ${to} (${a} is below ${b})`);
    else if (rb === ra && a !== '.') sideways.set(`${a}>${b}`, [...(sideways.get(`${a}>${b}`) ?? []), `${from} → ${to}`]);
  }
  for (const [k, list] of sideways) {
    const [a, b] = k.split('>');
    if (sideways.has(`${b}>${a}`)) bad.push(...list.map((e) => `${e} (${a} and ${b} import each other)`));
  }
  return bad.sort();
}

describe('the import direction in src-main/core', () => {
  it('no import runs against the layers', () => {
    expect(backEdges(coreImports(), LAYERS).filter((e) => !(e in KNOWN))).toEqual([]);
  });

  it('every known back-edge still exists (remove it from KNOWN once it is gone)', () => {
    const found = new Set(backEdges(coreImports(), LAYERS));
    expect(Object.keys(KNOWN).filter((e) => !found.has(e))).toEqual([]);
  });

  it('upstream/ knows no built-in server: the app registers the demo', () => {
    expect(coreImports().filter(([from, to]) => from.startsWith('upstream/') && to.startsWith('demo/'))).toEqual([]);
  });

  it('every core folder has a layer', () => {
    const folders = new Set(files(CORE).map((f) => folderOf(relative(CORE, f))));
    const placed = new Set(LAYERS.flat());
    expect([...folders].filter((f) => !placed.has(f))).toEqual([]);
  });

  it('the check finds a back-edge, a folder cycle within a layer and an import of the composition root', () => {
    const layers = [['.'], ['toolbox'], ['search', 'usage'], ['proxy']];
    expect(backEdges([['toolbox/a.ts', 'proxy/b.ts']], layers)).toEqual(['toolbox/a.ts → proxy/b.ts (toolbox is below proxy)']);
    expect(backEdges([['usage/a.ts', 'search/b.ts'], ['search/c.ts', 'usage/d.ts']], layers)).toHaveLength(2);
    expect(backEdges([['usage/a.ts', 'search/b.ts']], layers)).toEqual([]);
    expect(backEdges([['proxy/a.ts', 'app.ts']], layers)).toEqual(['proxy/a.ts → app.ts (the composition root)']);
    expect(backEdges([['proxy/a.ts', 'toolbox/b.ts'], ['toolbox/b.ts', 'clock.ts']], layers)).toEqual([]);
  });
});
