// The sentence model run by onnxruntime: texts → tokens (the model's own tokenizer.json, through
// @huggingface/tokenizers) → per-token vectors → mean pooling over real tokens → unit length.
import type { ModelFiles, ModelManifest } from './modelFiles.js';
import type { Embedder } from './types.js';

/** The slice of the onnxruntime API used here (onnxruntime-node and onnxruntime-web share it). */
export type OrtTensor = { data: unknown; dims: readonly number[] };
export type OrtSession = {
  readonly inputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  /**
   * run() and pool() where the runtime runs (modelProcess.ts): the per-token output of one 128-token text
   * is ~200 KB; crossing to the proxy, each made buffers there whose freed pages the allocator kept
   * (~30 MB of mws serve's RSS after the demo's 67 tools were embedded). One vector per text is 1.5 KB.
   */
  runPooled?(feeds: Record<string, OrtTensor>, pooling: Pooling): Promise<Float32Array[]>;
  release(): Promise<void>;
};
/** What pool() needs besides the output: which output, the texts' token ids (their lengths), and how. */
export type Pooling = { output: string; batch: number[][]; len: number; dim: number; how: 'mean' | 'cls' };
export type OrtModule = {
  /** `model`: the graph's path (the runtime reads the file itself). */
  InferenceSession: { create(model: string, options: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => OrtTensor;
  /**
   * Makes the tokenizer where the runtime runs (modelProcess.ts): parsing tokenizer.json and building
   * the tokenizer held the proxy's thread ~40–60 ms at the first search. Without it, it is made here.
   */
  makeTokenizer?(json: string, config: string): Promise<TextTokenizer>;
};

/** The model's tokenizer: token ids per text (special tokens included), and the id of [SEP]. */
export type TextTokenizer = { readonly sep: number; encode(texts: string[]): Promise<number[][]> };

/**
 * The tokenizer's files do not make a tokenizer (they do not parse): a damaged install. Any other
 * failure while it is made (its process ended, a deadline) is not this, and not the files' fault.
 */
export class TokenizerError extends Error {}

/** The tokenizer could not be made for another reason: its library would not load, its process ended. */
export class TokenizerStartError extends Error {}

/** The tokenizer made in this process (tests and benches that run the runtime here). */
async function tokenizerHere(json: string, config: string): Promise<TextTokenizer> {
  // Imported here, not at the top: nothing of the model is in the process until search is used.
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let t: InstanceType<typeof Tokenizer>;
  try {
    t = new Tokenizer(JSON.parse(json) as object, JSON.parse(config) as object);
  } catch (err) {
    throw new TokenizerError((err as Error).message);
  }
  return { sep: t.token_to_id('[SEP]') ?? 102, encode: async (texts) => texts.map((x) => t.encode(x).ids) };
}

/**
 * Texts per run: one. Dynamic int8 quantization scales activations over the whole input, so in a padded
 * batch a text's vector depends on its batch-mates (cosine 0.98 to itself alone); alone it depends on its
 * text only — a cached tool vector, a query vector and the conversion script's check agree. Batches
 * save no CPU over single runs for tool texts (docs/research/model.md).
 */
export const EMBED_BATCH = 1;
/** Characters of a text tokenized at most: 128 tokens are rarely more than ~700 characters of English. */
const MAX_TEXT_CHARS = 2000;

export class OnnxEmbedder implements Embedder {
  readonly model: string;
  readonly dim: number;
  readonly queryPrefix: string;
  readonly lexicalShare: number | undefined;
  private closed = false;
  private readonly manifest: ModelManifest;

  // Only the manifest is kept: the runtime read the graph (23 MB) from its file.
  private constructor(
    private readonly ort: OrtModule,
    private readonly session: OrtSession,
    files: ModelFiles,
    private readonly tokenizer: TextTokenizer,
  ) {
    this.manifest = files.manifest;
    this.model = files.manifest.name;
    this.dim = files.manifest.dim;
    this.queryPrefix = files.manifest.queryPrefix ?? '';
    this.lexicalShare = files.manifest.lexicalShare;
  }

  /** Rejects with a TokenizerError when the tokenizer's files do not parse; the session is released on any failure. */
  static async create(ort: OrtModule, files: ModelFiles, threads: number, extra: Record<string, unknown> = {}): Promise<OnnxEmbedder> {
    const session = await ort.InferenceSession.create(files.onnx, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      // The arena keeps the largest batch's buffers for the process's life; without it RSS falls back.
      enableCpuMemArena: false,
      // Memory patterns plan buffers per input shape and keep the plans: less RSS without, at no
      // CPU cost measured (bench/model/sessionOptions.ts, docs/research/model.md).
      enableMemPattern: false,
      // Prepacking keeps a repacked second copy of the int8 weights: more RSS in `mws serve`, and
      // no CPU saved at one text per run (docs/research/model.md). onnxruntime's key is session.disable_prepacking.
      ...extra,
      // A caller's own session keys (benches) are added to this one, not put in its place.
      extra: {
        ...(extra.extra as object),
        session: { disable_prepacking: '1', ...((extra.extra as { session?: object })?.session ?? {}) },
      },
    });
    let tokenizer: TextTokenizer;
    try {
      tokenizer = await (ort.makeTokenizer ?? tokenizerHere)(files.tokenizer, files.tokenizerConfig);
    } catch (err) {
      // Releasing the session ends the model's process, which holds the tokenizer's half-made state.
      await session.release().catch(() => {});
      throw err instanceof TokenizerError ? err : new TokenizerStartError((err as Error).message);
    }
    return new OnnxEmbedder(ort, session, files, tokenizer);
  }

  async embed(texts: string[], maxTokens?: number): Promise<Float32Array[]> {
    if (this.closed) throw new Error('the search model was closed');
    const max = Math.max(2, Math.min(this.manifest.maxTokens, maxTokens ?? Infinity));
    const tokens = await this.tokenizer.encode(texts.map((t) => t.slice(0, MAX_TEXT_CHARS)));
    // A short answer would leave texts without a vector, and tools with none in the cache.
    if (tokens.length !== texts.length) throw new Error(`the tokenizer gave ${tokens.length} answers for ${texts.length} texts`);
    // Cut as the model was trained: the first max-1 tokens, then [SEP].
    const encoded = tokens.map((ids) => (ids.length <= max ? ids : [...ids.slice(0, max - 1), this.tokenizer.sep]));
    // Similar lengths share a batch, so little is padded.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const out: Float32Array[] = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += EMBED_BATCH) {
      const batch = order.slice(start, start + EMBED_BATCH);
      const vectors = await this.runBatch(batch.map((i) => encoded[i]!));
      batch.forEach((i, k) => (out[i] = vectors[k]!));
    }
    return out;
  }

  private async runBatch(batch: number[][]): Promise<Float32Array[]> {
    const n = batch.length;
    const len = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(n * len);
    const mask = new BigInt64Array(n * len);
    batch.forEach((row, b) => row.forEach((id, t) => ((ids[b * len + t] = BigInt(id)), (mask[b * len + t] = 1n))));
    const feeds: Record<string, OrtTensor> = {};
    for (const name of this.session.inputNames) {
      if (name === 'input_ids') feeds[name] = new this.ort.Tensor('int64', ids, [n, len]);
      else if (name === 'attention_mask') feeds[name] = new this.ort.Tensor('int64', mask, [n, len]);
      else if (name === 'token_type_ids') feeds[name] = new this.ort.Tensor('int64', new BigInt64Array(n * len), [n, len]);
    }
    const pooling: Pooling = { output: this.manifest.output, batch, len, dim: this.dim, how: this.manifest.pooling };
    if (this.session.runPooled) return await this.session.runPooled(feeds, pooling);
    return poolOutput(await this.session.run(feeds), pooling);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.release();
  }
}

/** A run's outputs → one unit vector per text. Its source runs in the model's process too (modelProcess.ts): it names nothing but pool(). */
export function poolOutput(outputs: Record<string, OrtTensor>, p: Pooling): Float32Array[] {
  const data = outputs[p.output]?.data;
  if (!(data instanceof Float32Array)) throw new Error(`the search model gave no float output "${p.output}"`);
  return pool(data, p.batch, p.len, p.dim, p.how);
}

/** Per-token vectors [n, len, dim] → one unit vector per text (mean over its real tokens, or [CLS]). Its source runs in the model's process too: it names nothing outside itself. */
export function pool(data: Float32Array, batch: number[][], len: number, dim: number, how: 'mean' | 'cls'): Float32Array[] {
  return batch.map((row, b) => {
    const v = new Float32Array(dim);
    const count = how === 'cls' ? 1 : row.length;
    for (let t = 0; t < count; t++) {
      const base = (b * len + t) * dim;
      for (let d = 0; d < dim; d++) v[d]! += data[base + d]!;
    }
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dim; d++) v[d]! /= norm;
    return v;
  });
}
