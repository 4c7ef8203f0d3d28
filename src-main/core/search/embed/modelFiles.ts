// The shipped model's folder and its manifest (model.json): which files it needs, their sha256, and how
// its output becomes one vector per text. Read and checked here, before any runtime is loaded.
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { readFilePaged } from '../../pagedBytes.js';
import { join } from 'node:path';
import { packageRoot } from '../../config/jsonSchema.js';
import type { SEARCH_MODELS } from '../../config/configSchema.js';

export type SearchModel = (typeof SEARCH_MODELS)[number];
import type { EmbedderFailure } from './types.js';

/** The model search uses unless the config chooses another of SEARCH_MODELS (resources/model/<name>). */
export const DEFAULT_MODEL: SearchModel = 'all-minilm-l6-v2-int8';

export type ModelManifest = {
  name: string;
  dim: number;
  /** Texts are cut to this many tokens, [CLS] and [SEP] included (what the model was trained on). */
  maxTokens: number;
  pooling: 'mean' | 'cls';
  /** Put before a query (never before a tool's text), for models trained with a retrieval instruction. */
  queryPrefix?: string;
  /** BM25F's share when fused with this model (a stronger model earns a smaller one); default FUSION's. */
  lexicalShare?: number;
  /** The ONNX graph's output holding per-token vectors ([batch, tokens, dim]). */
  output: string;
  /** File name → sha256 (hex) of every file the model needs; model.onnx and tokenizer.json at least. */
  files: Record<string, string>;
};

/**
 * `onnx` is the graph's path: the runtime reads it itself (its bytes never sit in this process's heap).
 * The tokenizer's files are kept as text, checked but not parsed: they are parsed where the tokenizer is made.
 */
export type ModelFiles = { manifest: ModelManifest; onnx: string; tokenizer: string; tokenizerConfig: string };

/**
 * The shipped model's folder in a checkout or an installed package (the desktop app passes its own).
 * `MWS_MODEL_DIR` names another folder (a rebuilt model; a broken one to see how a failure shows).
 */
export function defaultModelDir(name: SearchModel = DEFAULT_MODEL): string {
  if (process.env.MWS_MODEL_DIR) return process.env.MWS_MODEL_DIR;
  return join(packageRoot() ?? process.cwd(), 'resources', 'model', name);
}

function fail(code: EmbedderFailure['error']['code'], message: string): EmbedderFailure {
  return { error: { code, message } };
}

function isManifest(v: unknown): v is ModelManifest {
  const m = v as ModelManifest;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.name === 'string' &&
    Number.isInteger(m.dim) &&
    m.dim > 0 &&
    Number.isInteger(m.maxTokens) &&
    m.maxTokens >= 2 &&
    (m.pooling === 'mean' || m.pooling === 'cls') &&
    (m.queryPrefix === undefined || typeof m.queryPrefix === 'string') &&
    (m.lexicalShare === undefined || (typeof m.lexicalShare === 'number' && m.lexicalShare >= 0 && m.lexicalShare <= 1)) &&
    typeof m.output === 'string' &&
    typeof m.files === 'object' &&
    m.files !== null &&
    typeof m.files['model.onnx'] === 'string' &&
    typeof m.files['tokenizer.json'] === 'string'
  );
}

async function readOrMissing(path: string): Promise<Buffer | undefined> {
  try {
    // Paged: the tokenizer's file is ~0.7 MB, handed to the model's process and then freed (pagedBytes.ts).
    return await readFilePaged(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Bytes read at a time while hashing the graph: under glibc's first mmap threshold (128 KB), since a
 * bigger buffer, once freed, raises it, and later buffers up to its size stay in the allocator's heap.
 */
export const HASH_PIECE_BYTES = 64 * 1024;

/**
 * The file's sha256, read piece by piece into one buffer; undefined when it is missing. A read stream
 * gives a new 64 KB buffer per piece: the 350 pieces of a 23 MB graph lived until V8 collected them, in
 * the allocator's heap, which kept the 30 MB afterwards (mws serve's RSS, docs/research/model.md).
 */
export async function sha256OfFile(path: string): Promise<string | undefined> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
  try {
    const hash = createHash('sha256');
    const piece = Buffer.allocUnsafe(HASH_PIECE_BYTES);
    for (;;) {
      const { bytesRead } = await file.read(piece, 0, piece.length, null);
      if (bytesRead === 0) return hash.digest('hex');
      hash.update(piece.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
}

export const REINSTALL = 'Search stays lexical; reinstall Working Set to restore the model.';

/** Reads the model folder and checks every file against model.json's sha256 (~40 ms for 23 MB). */
export async function readModelFiles(dir: string): Promise<ModelFiles | EmbedderFailure> {
  const manifestBytes = await readOrMissing(join(dir, 'model.json'));
  if (!manifestBytes) return fail('model_missing', `The search model is missing (${join(dir, 'model.json')}). ${REINSTALL}`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8'));
  } catch {
    manifest = undefined;
  }
  if (!isManifest(manifest))
    return fail('model_corrupt', `The search model's manifest ${join(dir, 'model.json')} is damaged. ${REINSTALL}`);
  const bytes = new Map<string, Buffer>();
  for (const [file, sha] of Object.entries(manifest.files)) {
    const path = join(dir, file);
    // The graph is hashed a piece at a time and not kept: 23–34 MB read whole stayed in the allocator's
    // heap after the runtime had its own copy (it is read again by the runtime, in its own process).
    const digest =
      file === 'model.onnx' ? await sha256OfFile(path) : await readOrMissing(path).then((b) => b && (bytes.set(file, b), sha256(b)));
    if (digest === undefined) return fail('model_missing', `The search model's file ${path} is missing. ${REINSTALL}`);
    if (digest !== sha.toLowerCase())
      return fail('model_corrupt', `The search model's file ${path} is damaged (its sha256 differs from model.json's). ${REINSTALL}`);
  }
  return {
    manifest,
    onnx: join(dir, 'model.onnx'),
    tokenizer: bytes.get('tokenizer.json')!.toString('utf8'),
    tokenizerConfig: bytes.get('tokenizer_config.json')?.toString('utf8') ?? '{}',
  };
}
