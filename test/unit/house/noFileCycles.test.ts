// No two files of the core import each other, directly or around a loop (type imports included): a
// reader can take the files in an order where each needs only what came before.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = resolve(import.meta.dirname, '../../../src-main/core');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Relative imports and re-exports of a file, static or dynamic, resolved to .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** One cycle of the graph, as file paths, or undefined. */
export function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): string[] | undefined => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (!graph.has(g)) continue;
      if (state.get(g) === 'open') return [...stack.slice(stack.indexOf(g)), g];
      if (!state.has(g)) {
        const c = visit(g);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(f, 'done');
    return undefined;
  };
  for (const f of graph.keys()) {
    if (state.has(f)) continue;
    const c = visit(f);
    if (c) return c;
  }
  return undefined;
}

describe('the core has no import cycle', () => {
  it('finds a cycle where there is one (the check bites)', () => {
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBeUndefined();
  });

  it('no file of src-main/core imports itself back through others', () => {
    const graph = new Map(sources(CORE).map((f) => [f, importsOf(f)]));
    const cycle = findCycle(graph);
    expect(cycle?.map((f) => relative(CORE, f)).join(' → ')).toBeUndefined();
  });
});
