// The tools' sentence vectors as one matrix per search index, for ranking by meaning: nearest tools
// to a query vector (cosine; vectors are unit length), and any one tool's similarity for fusion.
import type { ToolEntry } from '../toolbox/toolbox.js';

/** What search needs of the vectors (embed/toolVectors.ts keeps them: load, cache, slices, failure). */
export type SemanticVectors = {
  /** The model is loaded and every tool of the current toolbox has a vector. */
  ready(): boolean;
  /** Search was used: load the model and embed the toolbox in the background. */
  activate(): void;
  vector(entry: ToolEntry): Float32Array | undefined;
  /** The query's vector; undefined when the model is not loaded or failed (answer lexically). */
  embedQuery(text: string): Promise<Float32Array | undefined>;
  /** The loaded model's name (query vectors kept from another model are not compared); undefined: none loaded. */
  model?(): string | undefined;
  /** BM25F's share when fused with this model (its manifest's); undefined: the engine's default. */
  lexicalShare?(): number | undefined;
};

export class DenseIndex {
  /** The last query's similarity to every tool: one search asks for it several times (pool, recall, explain). */
  private last: { q: Float32Array; scores: Float64Array } | undefined;

  private constructor(
    private readonly entries: readonly ToolEntry[],
    /** The vectors ToolVectors holds, by reference: a copy into one matrix would double their memory for no speed. */
    private readonly vectors: readonly Float32Array[],
  ) {}

  /** The index when every entry has a vector; undefined otherwise (search stays lexical). */
  static of(entries: readonly ToolEntry[], source: SemanticVectors): DenseIndex | undefined {
    const vectors: Float32Array[] = [];
    for (const e of entries) {
      const v = source.vector(e);
      if (!v) return undefined;
      vectors.push(v);
    }
    if (vectors.some((v) => v.length !== vectors[0]!.length)) return undefined;
    return new DenseIndex(entries, vectors);
  }

  /** Cosine of `q` to every tool (vectors are unit length); computed once per query vector. */
  private scores(q: Float32Array): Float64Array {
    if (this.last?.q === q) return this.last.scores;
    const out = new Float64Array(this.vectors.length);
    for (let doc = 0; doc < this.vectors.length; doc++) {
      const v = this.vectors[doc]!;
      const m = Math.min(v.length, q.length);
      const m4 = m - (m % 4);
      // Four running sums: V8 keeps them in registers, faster than one (docs/research/model.md).
      let a = 0;
      let b = 0;
      let c = 0;
      let e = 0;
      let d = 0;
      for (; d < m4; d += 4) {
        a += v[d]! * q[d]!;
        b += v[d + 1]! * q[d + 1]!;
        c += v[d + 2]! * q[d + 2]!;
        e += v[d + 3]! * q[d + 3]!;
      }
      for (; d < m; d++) a += v[d]! * q[d]!;
      out[doc] = a + b + c + e;
    }
    this.last = { q, scores: out };
    return out;
  }

  sim(doc: number, q: Float32Array): number {
    return doc >= 0 && doc < this.entries.length ? this.scores(q)[doc]! : 0;
  }

  /** The `k` tools nearest to `q`, best first, optionally only those `within`. */
  nearest(q: Float32Array, k: number, within?: (e: ToolEntry) => boolean): Array<{ doc: number; score: number }> {
    const scores = this.scores(q);
    const out: Array<{ doc: number; score: number }> = [];
    if (k <= 0) return out;
    for (let doc = 0; doc < scores.length; doc++) {
      const score = scores[doc]!;
      if (out.length === k && score <= out[k - 1]!.score) continue;
      if (within && !within(this.entries[doc]!)) continue;
      let i = out.length === k ? k - 1 : out.length;
      while (i > 0 && out[i - 1]!.score < score) {
        out[i] = out[i - 1]!;
        i--;
      }
      out[i] = { doc, score };
    }
    return out;
  }
}
