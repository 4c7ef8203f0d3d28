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
};

export class DenseIndex {
  private constructor(
    private readonly entries: readonly ToolEntry[],
    private readonly vectors: Float32Array[],
  ) {}

  /** The index when every entry has a vector; undefined otherwise (search stays lexical). */
  static of(entries: readonly ToolEntry[], source: SemanticVectors): DenseIndex | undefined {
    const vectors: Float32Array[] = [];
    for (const e of entries) {
      const v = source.vector(e);
      if (!v) return undefined;
      vectors.push(v);
    }
    return new DenseIndex(entries, vectors);
  }

  sim(doc: number, q: Float32Array): number {
    const v = this.vectors[doc];
    if (!v) return 0;
    let s = 0;
    for (let d = 0; d < v.length && d < q.length; d++) s += v[d]! * q[d]!;
    return s;
  }

  /** The `k` tools nearest to `q`, best first, optionally only those `within`. */
  nearest(q: Float32Array, k: number, within?: (e: ToolEntry) => boolean): Array<{ doc: number; score: number }> {
    const out: Array<{ doc: number; score: number }> = [];
    for (let doc = 0; doc < this.vectors.length; doc++) {
      if (within && !within(this.entries[doc]!)) continue;
      const score = this.sim(doc, q);
      if (out.length === k && score <= out[k - 1]!.score) continue;
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
