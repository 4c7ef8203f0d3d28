// onnxruntime in a child process of its own. onnxruntime-node computes synchronously on the calling
// thread (its run() is a setImmediate around the native call), so on the proxy's thread every model run
// held every agent's requests: while a new toolbox was embedded (~80 s of a core at 5,000 tools) a
// lexical search_tools round trip took 62 ms p50 instead of 4 (bench/scale). A worker thread was tried
// next: stopping it during a run (process.exit, an out-of-memory stop) makes the runtime abort the whole
// process (SIGABRT: a C++ exception it cannot throw into a stopping thread), so the proxy would die with
// it. A child process keeps the runtime's failures, and its memory, out of the proxy.
// The child offers the slice of the onnxruntime API OnnxEmbedder uses (OrtModule) and the model's
// tokenizer (the same library as in process, so vectors are the same as with the runtime in process:
// tests, benches), and pools there (runPooled): one vector per text crosses back, not every token's.
import type { ChildProcess } from 'node:child_process';
import { spawnScript } from '../../childScript.js';
import {
  TokenizerError,
  pool,
  poolOutput,
  type OrtModule,
  type OrtSession,
  type OrtTensor,
  type Pooling,
  type TextTokenizer,
} from './onnxEmbedder.js';

/** Starting the runtime and creating the session may take this long at most (a busy 2-core machine). */
export const MODEL_START_DEADLINE_MS = 120_000;
/** One request (one run of one text, or the tokens of a slice of texts) may take this long at most; a process that does not answer is ended. */
export const MODEL_RUN_DEADLINE_MS = 60_000;

/**
 * The child's heap: young generation at 1 MB semispaces (its work is small objects: token ids, one
 * vector per text; the default lets it grow to 2 × 16 MB), and a collection it can ask for when idle.
 */
const MODEL_NODE_OPTIONS = ['--max-semi-space-size=1', '--expose-gc'];
/**
 * glibc's allocator with a fixed threshold: buffers from 1 MB up (the embedding table, a long text's
 * activations) are mapped on their own and given back when freed. Left to itself it raises the threshold
 * to the largest buffer freed so far, and later buffers of that size stay in its heap for good. 128 KB
 * gave back more (−6 to −8 MB at rest) but cost ~20 % more CPU per tool text, every activation mapped
 * and zeroed afresh (docs/research/model.md). Other platforms ignore it.
 */
const MODEL_ENV = { MALLOC_MMAP_THRESHOLD_: String(1024 * 1024) };
/** How long after the proxy's last request the child collects its garbage. */
const IDLE_GC_MS = 2000;

/** pool() and poolOutput() as the child's script declares them (poolHere); exported for a test that runs it alone. */
export const POOLING_SOURCE = `${pool.toString()}\nconst poolHere = (${poolOutput.toString()});`;

// Run by childScript.ts with the paths of onnxruntime-node and @huggingface/tokenizers as its arguments. It lowers its own priority (the proxy is served first on
// a machine with few cores) and ends when the proxy's end of the channel closes, however the proxy ended.
// The pooling is the proxy's own functions' source (pool() under its name as built, which poolOutput's
// body calls), so vectors are the same bits either way.
const SCRIPT = `
try { require('node:os').setPriority(5); } catch {}
${POOLING_SOURCE}
process.on('disconnect', () => process.exit(0));
let ort;
let Tokenizer;
try {
  ort = require(process.argv[1]);
  if (typeof ort.InferenceSession?.create !== 'function' || typeof ort.Tensor !== 'function')
    throw new Error('it does not export InferenceSession and Tensor');
  // The tokenizer's library too: one that will not load is this platform's failure, not the model files'.
  Tokenizer = require(process.argv[2]).Tokenizer;
  if (typeof Tokenizer !== 'function') throw new Error('@huggingface/tokenizers does not export Tokenizer');
  process.send({ loaded: true });
} catch (err) {
  ort = undefined;
  process.send({ loaded: false, message: String(err && err.message).split('\\n')[0] });
}
let session;
let tokenizer;
let idle;
process.on('message', async (m) => {
  // A collection once the proxy has stopped asking: V8's own comes tens of seconds later, if at all.
  clearTimeout(idle);
  idle = setTimeout(() => global.gc?.(), ${IDLE_GC_MS}).unref();
  try {
    if (m.op === 'encode') {
      process.send({ id: m.id, ids: m.texts.map((t) => tokenizer.encode(t).ids) });
    } else if (m.op === 'tokenizer') {
      tokenizer = new Tokenizer(JSON.parse(m.json), JSON.parse(m.config));
      process.send({ id: m.id, sep: tokenizer.token_to_id('[SEP]') ?? 102 });
    } else if (m.op === 'create') {
      session = await ort.InferenceSession.create(m.model, m.options);
      process.send({ id: m.id, inputNames: session.inputNames });
    } else if (m.op === 'run') {
      const feeds = {};
      for (const [name, t] of Object.entries(m.feeds)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
      const out = await session.run(feeds);
      if (m.pooling) {
        process.send({ id: m.id, vectors: poolHere(out, m.pooling) });
        return;
      }
      const result = {};
      for (const [name, t] of Object.entries(out)) result[name] = { data: t.data, dims: t.dims };
      process.send({ id: m.id, result });
    }
  } catch (err) {
    process.send({ id: m.id, error: String((err && err.message) || err).split('\\n')[0] });
  }
});
`;

type Answer = {
  id: number;
  error?: string;
  inputNames?: string[];
  result?: Record<string, OrtTensor>;
  vectors?: Float32Array[];
  sep?: number;
  ids?: number[][];
};
type Pending = { resolve(a: Answer): void; reject(e: Error): void };

/** A failure the child answered with (the request's own), not the child's end or a deadline. */
class AnsweredError extends Error {}

/** A tensor as it crosses to the child: its type, data and shape. */
class PlainTensor implements OrtTensor {
  constructor(
    readonly type: 'int64',
    readonly data: BigInt64Array,
    readonly dims: number[],
  ) {}
}

/** The child and its answers by request id; every request fails with one sentence once it has ended. */
class ModelChild {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private ended: Error | undefined;

  constructor(
    readonly child: ChildProcess,
    lastError: () => string,
  ) {
    child.on('message', (m: Answer) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      this.idleRefs();
      if (m.error !== undefined) p.reject(new AnsweredError(m.error));
      else p.resolve(m);
    });
    child.once('error', (err) => this.end(new Error(`the search model's process failed: ${err.message}`)));
    // 'close', not 'exit': only then has stderr been read to its end, so its last line is known.
    child.once('close', (code, signal) => {
      const last = lastError();
      this.end(new Error(`the search model's process ended (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`));
    });
    this.idleRefs();
  }

  request(message: Record<string, unknown>): Promise<Answer> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.next++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Waiting for an answer keeps the proxy's process alive; an idle child never does.
      this.child.ref();
      (this.child.channel as { ref?: () => void } | undefined)?.ref?.();
      const unsent = (err: Error | null) => {
        if (!err || !this.pending.delete(id)) return;
        this.idleRefs();
        reject(new Error(`the search model's process could not be reached (${err.message})`));
      };
      try {
        this.child.send({ ...message, id }, unsent);
      } catch (err) {
        unsent(err as Error);
      }
    });
  }

  /** request(), ending the child when it does not answer within `ms`. */
  async within(ms: number, message: Record<string, unknown>): Promise<Answer> {
    const timer = setTimeout(() => this.close(new Error(`the search model's process did not answer within ${ms / 1000} s`)), ms);
    timer.unref();
    try {
      return await this.request(message);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the child; requests still waiting fail with `why`. */
  close(why: Error): void {
    this.end(why);
    this.child.kill('SIGKILL');
  }

  private idleRefs(): void {
    if (this.pending.size > 0) return;
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  private end(err: Error): void {
    this.ended ??= err;
    for (const p of this.pending.values()) p.reject(this.ended);
    this.pending.clear();
    this.idleRefs();
  }
}

/**
 * Starts a child process that loads onnxruntime, and answers with the OrtModule that runs there. Rejects
 * (and the child ends) when the runtime will not load. One session per child: releasing it ends the child.
 */
export async function modelProcess(): Promise<OrtModule & { pid: number | undefined }> {
  // Typed arrays cross the channel as they are ('advanced': the structured clone), not as JSON.
  const { child, lastError } = spawnScript(SCRIPT, ['onnxruntime-node', '@huggingface/tokenizers'], {
    stdin: 'ignore',
    stdout: 'ignore',
    ipc: { serialization: 'advanced' },
    nodeOptions: MODEL_NODE_OPTIONS,
    env: MODEL_ENV,
  });
  const loaded = await new Promise<{ loaded: boolean; message?: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`it did not start within ${MODEL_START_DEADLINE_MS / 1000} s`));
    }, MODEL_START_DEADLINE_MS);
    timer.unref();
    child.once('message', (m: { loaded: boolean; message?: string }) => (clearTimeout(timer), resolve(m)));
    child.once('error', (err) => (clearTimeout(timer), reject(err)));
    // 'close', not 'exit': only then has stderr been read to its end, so its last line is known.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const last = lastError();
      reject(new Error(`its process ended while loading (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`));
    });
  });
  if (!loaded.loaded) {
    child.kill('SIGKILL');
    throw new Error(loaded.message ?? 'it did not load');
  }
  const mc = new ModelChild(child, lastError);
  return {
    pid: child.pid,
    Tensor: PlainTensor,
    async makeTokenizer(json: string, config: string): Promise<TextTokenizer> {
      const made = await mc.within(MODEL_START_DEADLINE_MS, { op: 'tokenizer', json, config }).catch((err: Error) => {
        // Only the child's own answer says the files do not make a tokenizer.
        throw err instanceof AnsweredError ? new TokenizerError(err.message) : err;
      });
      return {
        sep: made.sep ?? 102,
        encode: async (texts) => (await mc.within(MODEL_RUN_DEADLINE_MS, { op: 'encode', texts })).ids ?? [],
      };
    },
    InferenceSession: {
      async create(model: string, options: Record<string, unknown>): Promise<OrtSession> {
        const made = await mc.within(MODEL_START_DEADLINE_MS, { op: 'create', model, options }).catch((err: Error) => {
          mc.close(err);
          throw err;
        });
        return {
          inputNames: made.inputNames ?? [],
          async run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>> {
            return (await mc.within(MODEL_RUN_DEADLINE_MS, { op: 'run', feeds })).result ?? {};
          },
          async runPooled(feeds: Record<string, OrtTensor>, pooling: Pooling): Promise<Float32Array[]> {
            const vectors = (await mc.within(MODEL_RUN_DEADLINE_MS, { op: 'run', feeds, pooling })).vectors;
            if (vectors?.length !== pooling.batch.length)
              throw new Error(`the search model's process gave ${vectors?.length ?? 0} vectors for ${pooling.batch.length} texts`);
            return vectors;
          },
          async release(): Promise<void> {
            // The process goes, and all its memory with it.
            mc.close(new Error('the search model was closed'));
          },
        };
      },
    },
  };
}
