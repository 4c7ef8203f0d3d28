// Loads the shipped sentence model, or says in one sentence why it cannot: a missing or damaged file, a
// runtime that will not load on this platform, a model the runtime rejects. Never throws.
import { errorMessage } from '../../errors.js';
import { defaultModelDir, readModelFiles, REINSTALL } from './modelFiles.js';
import { OnnxEmbedder, TokenizerError, TokenizerStartError, type OrtModule } from './onnxEmbedder.js';
import { modelProcess } from './modelProcess.js';
import type { Embedder, EmbedderFailure, LoadEmbedderOptions } from './types.js';

function isOrtModule(m: unknown): m is OrtModule {
  const o = m as { InferenceSession?: { create?: unknown }; Tensor?: unknown; default?: unknown };
  return typeof o?.InferenceSession?.create === 'function' && typeof o.Tensor === 'function';
}

const LEXICAL = 'Search stays lexical (by words, without the model).';

export async function loadEmbedder(opts: LoadEmbedderOptions = {}): Promise<Embedder | EmbedderFailure> {
  const dir = opts.modelDir ?? defaultModelDir();
  let files: Awaited<ReturnType<typeof readModelFiles>>;
  try {
    files = await readModelFiles(dir);
  } catch (err) {
    return { error: { code: 'model_missing', message: `The search model in ${dir} could not be read: ${errorMessage(err)}. ${LEXICAL}` } };
  }
  if ('error' in files) return files;
  let ort: unknown;
  try {
    // The runtime is loaded only when the model is first needed, in a process of its own (modelProcess.ts).
    ort = await (opts.importRuntime ?? modelProcess)();
    const inner = (ort as { default?: unknown }).default;
    if (!isOrtModule(ort) && isOrtModule(inner)) ort = inner;
    if (!isOrtModule(ort)) throw new Error('it does not export InferenceSession and Tensor');
  } catch (err) {
    return {
      error: {
        code: 'runtime_unavailable',
        message: `onnxruntime would not load on ${process.platform}-${process.arch}: ${errorMessage(err)}. ${LEXICAL}`,
      },
    };
  }
  let embedder: OnnxEmbedder;
  try {
    embedder = await OnnxEmbedder.create(ort, files, opts.threads ?? 1, opts.session);
  } catch (err) {
    if (err instanceof TokenizerError)
      return {
        error: {
          code: 'model_corrupt',
          message: `The search model's tokenizer files in ${dir} do not parse: ${err.message}. ${REINSTALL}`,
        },
      };
    if (err instanceof TokenizerStartError)
      return { error: { code: 'model_failed', message: `The search model's tokenizer could not be made: ${err.message}. ${LEXICAL}` } };
    return {
      error: {
        code: 'model_corrupt',
        message: `onnxruntime could not read the search model ${dir}/model.onnx: ${errorMessage(err)}. ${LEXICAL}`,
      },
    };
  }
  // One probe: a model that loads but cannot compute (wrong graph, out of memory) fails here, not in a search.
  try {
    const [probe] = await embedder.embed(['probe']);
    if (!probe || probe.length !== embedder.dim || !Number.isFinite(probe[0]))
      throw new Error(`it gave ${probe?.length ?? 0} numbers, not ${embedder.dim}`);
  } catch (err) {
    await embedder.close().catch(() => {});
    return {
      error: { code: 'model_failed', message: `The search model ${dir} failed its first computation: ${errorMessage(err)}. ${LEXICAL}` },
    };
  }
  return embedder;
}
