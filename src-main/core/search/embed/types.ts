// The sentence-model seam: what search asks of a model (vectors for texts), and what a failed load says.
// Search codes against these types only; the model's files and runtime stay behind loadEmbedder.
// Imports nothing: the window's typecheck reads this file through control/api.ts.

/** A loaded sentence model. Vectors are unit length (cosine similarity is their dot product). */
export interface Embedder {
  /** The name of the model folder under resources/model (also keys the vector cache). */
  readonly model: string;
  readonly dim: number;
  /** What a query is prefixed with before it is embedded (none for most models). */
  readonly queryPrefix?: string;
  /** BM25F's share when fused with this model (model.json); none: the engine's default. */
  readonly lexicalShare?: number;
  /**
   * One unit-length vector per text, in order; `maxTokens` cuts texts shorter than the model's limit.
   * Rejects only on a runtime failure (out of memory…).
   */
  embed(texts: string[], maxTokens?: number): Promise<Float32Array[]>;
  /** Frees the runtime's session; embed() after close rejects. */
  close(): Promise<void>;
}

/** Why the model could not be used; search is then lexical and `message` is the one warning shown. */
export type EmbedderFailureCode =
  /** The model folder or one of its files is not there. */
  | 'model_missing'
  /** A file is there but its sha256 differs from model.json's, or the runtime could not parse it. */
  | 'model_corrupt'
  /** onnxruntime (or the tokenizer library) would not load on this platform. */
  | 'runtime_unavailable'
  /** The runtime ran out of memory or failed while computing vectors. */
  | 'model_failed';

export type EmbedderFailure = { error: { code: EmbedderFailureCode; message: string } };

export type LoadEmbedderOptions = {
  /** The folder holding model.json, model.onnx and tokenizer.json (default: the shipped model). */
  modelDir?: string;
  log?: { info(message: string): void; warn(message: string): void };
  /** Threads the runtime may use for one computation (default 1: the machine is shared with serving). */
  threads?: number;
  /** onnxruntime session options over the shipped ones (bench/model/sessionOptions.ts measures them). */
  session?: Record<string, unknown>;
  /** Test and bench seam: the runtime module to use in this thread (`import("onnxruntime-node")`), instead of the child process that runs it (modelProcess.ts). */
  importRuntime?: () => Promise<unknown>;
};

/** What the window and the control API show about semantic search. */
export type EmbeddingStatus = {
  /** idle: search not used yet (no model loaded); loading: the model or tool vectors are being prepared;
   *  ready: searches use the model; off: the model failed and search is lexical. */
  state: 'idle' | 'loading' | 'ready' | 'off';
  /** Tools with a vector / tools in the toolbox. */
  embedded: number;
  total: number;
  /** One sentence for the user when the model failed (search is lexical meanwhile). */
  warning: string | undefined;
};

export function isEmbedderFailure(v: Embedder | EmbedderFailure): v is EmbedderFailure {
  return (v as EmbedderFailure).error !== undefined;
}
