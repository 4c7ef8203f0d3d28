import { describe, expect, it } from 'vitest';
import { DenseIndex, type SemanticVectors } from '../../../src-main/core/search/denseIndex.js';
import type { ToolEntry } from '../../../src-main/core/toolbox/toolbox.js';

// Deterministic pseudo-random unit vectors (no Math.random: the same every run).
function vectors(n: number, dim: number, seed = 7): Float32Array[] {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dim }, next);
    const norm = Math.hypot(...v);
    return v.map((y) => y / norm);
  });
}

const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}` }) as unknown as ToolEntry);
const source = (vs: Float32Array[], es: ToolEntry[]): SemanticVectors => ({
  ready: () => true,
  activate: () => {},
  vector: (e) => vs[es.indexOf(e)],
  embedQuery: async () => undefined,
});
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, y, i) => s + y * b[i]!, 0);

describe('DenseIndex', () => {
  // 387 is not a multiple of four: the unrolled scan's remainder must be counted too.
  for (const dim of [384, 387, 3]) {
    it(`gives every tool's cosine exactly as a plain dot product (dim ${dim})`, () => {
      const es = entries(40);
      const vs = vectors(40, dim);
      const [q] = vectors(1, dim, 99);
      const index = DenseIndex.of(es, source(vs, es))!;
      for (let doc = 0; doc < 40; doc++) expect(index.sim(doc, q!)).toBeCloseTo(dot(vs[doc]!, q!), 6);
      const expected = vs
        .map((v, doc) => ({ doc, score: dot(v, q!) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 5)
        .map((h) => h.doc);
      expect(index.nearest(q!, 5).map((h) => h.doc)).toEqual(expected);
    });
  }

  it('keeps only the tools `within` allows, and answers nothing for k = 0', () => {
    const es = entries(30);
    const vs = vectors(30, 16);
    const index = DenseIndex.of(es, source(vs, es))!;
    const even = index.nearest(vs[3]!, 10, (e) => Number(e.name.slice(1)) % 2 === 0);
    expect(even).toHaveLength(10);
    expect(even.every((h) => h.doc % 2 === 0)).toBe(true);
    expect(index.nearest(vs[3]!, 0)).toEqual([]);
    expect(index.nearest(vs[3]!, 1)[0]!.doc).toBe(3);
  });

  it('answers for each new query vector, not the previous one (the last scan is reused only for the same vector)', () => {
    const es = entries(20);
    const vs = vectors(20, 8);
    const index = DenseIndex.of(es, source(vs, es))!;
    expect(index.nearest(vs[4]!, 1)[0]!.doc).toBe(4);
    expect(index.nearest(vs[11]!, 1)[0]!.doc).toBe(11);
    expect(index.sim(11, vs[11]!)).toBeCloseTo(1, 5);
    expect(index.sim(99, vs[11]!)).toBe(0);
  });

  it('is not made while a tool has no vector, or when vectors differ in length', () => {
    const es = entries(3);
    const vs = vectors(3, 8);
    expect(DenseIndex.of(es, source([vs[0]!, vs[1]!], es))).toBeUndefined();
    expect(DenseIndex.of(es, source([vs[0]!, vs[1]!, vectors(1, 4)[0]!], es))).toBeUndefined();
  });
});
