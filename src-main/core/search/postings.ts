// The search index's postings: per term, the tools that hold it (in tool order), each with its BM25F
// saturation and the fields that hold the term. All terms share three flat arrays, filled term by term:
// four small typed arrays per term cost ~4 MB of heap at 5,000 tools (20,000 arrays and their buffers).

/** The field bit of a tool's name (FIELD_NAMES' first): whether the term is in the tool's name. */
export const IN_NAME = 1;

export class PostingsTable {
  private readonly ids = new Map<string, number>();
  /** Term `id`'s postings are [starts[id], starts[id + 1]). */
  private readonly starts: Int32Array;
  readonly docs: Int32Array;
  readonly sat: Float32Array;
  readonly fields: Uint8Array;
  private filled = 0;

  constructor(terms: number, postings: number) {
    this.starts = new Int32Array(terms + 1);
    this.docs = new Int32Array(postings);
    this.sat = new Float32Array(postings);
    this.fields = new Uint8Array(postings);
  }

  /**
   * Opens the next term's `count` postings, to be written at [answer, answer + count) of docs, sat and
   * fields. Each term once, and no more terms or postings than the table was made for.
   */
  add(term: string, count: number): number {
    const id = this.ids.size;
    if (this.ids.has(term)) throw new Error(`PostingsTable: "${term}" was added twice.`);
    if (id + 1 >= this.starts.length || this.filled + count > this.docs.length)
      throw new Error(`PostingsTable: "${term}" does not fit: more terms or postings than the table was made for.`);
    this.ids.set(term, id);
    const start = this.filled;
    this.filled += count;
    this.starts[id + 1] = this.filled;
    return start;
  }

  has(term: string): boolean {
    return this.ids.has(term);
  }

  /** The term's number, or -1 when no tool holds it. */
  id(term: string): number {
    return this.ids.get(term) ?? -1;
  }

  start(id: number): number {
    return this.starts[id]!;
  }

  end(id: number): number {
    return this.starts[id + 1]!;
  }

  /** How many tools hold the term (undefined: none). */
  df(term: string): number | undefined {
    const id = this.ids.get(term);
    return id === undefined ? undefined : this.starts[id + 1]! - this.starts[id]!;
  }

  /** The fields of tool `doc` that hold `term` (0: none). */
  fieldsOf(term: string, doc: number): number {
    const id = this.ids.get(term);
    if (id === undefined) return 0;
    for (let i = this.starts[id]!; i < this.starts[id + 1]!; i++) if (this.docs[i] === doc) return this.fields[i]!;
    return 0;
  }
}
