// onnxruntime in a worker thread. onnxruntime-node computes synchronously on the calling thread (its
// run() is a setImmediate around the native call), so on the proxy's thread every model run held every
// agent's requests: while a new toolbox was embedded (~80 s of a core at 5,000 tools) a lexical
// search_tools round trip took 62 ms p50 instead of 9 (bench/scale). Here the runtime, the session and
// the model's bytes live in one worker; the proxy's thread only tokenizes, pools and waits.
// The worker offers the slice of the onnxruntime API OnnxEmbedder uses (OrtModule), so the embedder is
// the same in a worker and in process (tests and benches that pass their own runtime).
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { OrtModule, OrtSession, OrtTensor } from './onnxEmbedder.js';

// A CommonJS script, so sources (tsx, vitest) and the built bundle run the same worker without a separate
// file to build and find (as import/jsonWorker.ts); onnxruntime-node is required by the path resolved here.
// On Linux the worker lowers its own priority (the call applies to the calling thread only): the proxy's
// thread is given the CPU first on a machine with few cores while a toolbox is embedded.
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') try { require('node:os').setPriority(0, 5); } catch {}
let ort;
try {
  ort = require(workerData.ort);
  if (typeof ort.InferenceSession?.create !== 'function' || typeof ort.Tensor !== 'function')
    throw new Error('it does not export InferenceSession and Tensor');
  parentPort.postMessage({ loaded: true });
} catch (err) {
  ort = undefined;
  parentPort.postMessage({ loaded: false, message: String(err && err.message) });
}
let session;
const fail = (id, err) => parentPort.postMessage({ id, error: String((err && err.message) || err) });
parentPort.on('message', async (m) => {
  try {
    if (m.op === 'create') {
      session = await ort.InferenceSession.create(m.model, m.options);
      parentPort.postMessage({ id: m.id, inputNames: session.inputNames });
    } else if (m.op === 'run') {
      const feeds = {};
      for (const [name, t] of Object.entries(m.feeds)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
      const out = await session.run(feeds);
      const result = {};
      const transfer = [];
      for (const [name, t] of Object.entries(out)) {
        // A copy: the runtime's own buffer may not be detachable.
        const data = t.data.slice();
        result[name] = { data, dims: t.dims };
        if (data.buffer) transfer.push(data.buffer);
      }
      parentPort.postMessage({ id: m.id, result }, transfer);
    } else if (m.op === 'release') {
      if (session) await session.release();
      session = undefined;
      parentPort.postMessage({ id: m.id });
    }
  } catch (err) {
    fail(m.id, err);
  }
});
`;

type Answer = { id: number; error?: string; inputNames?: string[]; result?: Record<string, OrtTensor> };
type Pending = { resolve(a: Answer): void; reject(e: Error): void };

/** A tensor as it crosses to the worker: its type, data and shape. */
class PlainTensor implements OrtTensor {
  constructor(
    readonly type: 'int64',
    readonly data: BigInt64Array,
    readonly dims: number[],
  ) {}
}

/** The worker and its answers by request id; every request fails with one sentence once it stops. */
class RuntimeWorker {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private stopped: Error | undefined;

  constructor(readonly worker: Worker) {
    worker.on('message', (m: Answer) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m);
    });
    worker.once('error', (err) => this.stop(new Error(`the search model's thread failed: ${err.message}`)));
    // Out of memory, or terminated: it ends without a word.
    worker.once('exit', (code) => this.stop(new Error(`the search model's thread stopped (exit code ${code})`)));
  }

  request(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Answer> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.next++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...message, id }, transfer);
      } catch (err) {
        this.pending.delete(id);
        reject(err as Error);
      }
    });
  }

  private stop(err: Error): void {
    this.stopped ??= err;
    for (const p of this.pending.values()) p.reject(this.stopped);
    this.pending.clear();
  }
}

/**
 * Starts a worker that loads onnxruntime, and answers with the OrtModule that runs there. Rejects (and
 * the worker ends) when the runtime will not load. One session per worker: releasing it ends the worker.
 */
export async function workerRuntime(): Promise<OrtModule> {
  const ort = createRequire(import.meta.url).resolve('onnxruntime-node');
  // The worker's own heap holds only messages: a small young generation keeps its committed room small.
  const worker = new Worker(SCRIPT, { eval: true, workerData: { ort }, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  // The model's thread never keeps a CLI command or a finished test alive.
  worker.unref();
  const loaded = await new Promise<{ loaded: boolean; message?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`its thread stopped while loading (exit code ${code})`)));
  });
  if (!loaded.loaded) {
    await worker.terminate();
    throw new Error(loaded.message ?? 'it did not load');
  }
  const rt = new RuntimeWorker(worker);
  return {
    Tensor: PlainTensor,
    InferenceSession: {
      async create(model: Uint8Array, options: Record<string, unknown>): Promise<OrtSession> {
        // The bytes move to the worker (no copy stays here) when they are a whole buffer of their own.
        const whole = model.byteOffset === 0 && model.byteLength === model.buffer.byteLength && model.buffer instanceof ArrayBuffer;
        const bytes = whole ? model : model.slice();
        const made = await rt
          .request({ op: 'create', model: bytes, options }, [bytes.buffer as ArrayBuffer])
          // A buffer that may not move (a pooled one) is copied instead.
          .catch((err: Error) =>
            err.name === 'DataCloneError' || /transfer|detach/i.test(err.message)
              ? rt.request({ op: 'create', model: model.slice(), options })
              : Promise.reject(err),
          )
          .catch(async (err: Error) => {
            await worker.terminate();
            throw err;
          });
        return {
          inputNames: made.inputNames ?? [],
          async run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>> {
            return (await rt.request({ op: 'run', feeds })).result ?? {};
          },
          async release(): Promise<void> {
            await rt.request({ op: 'release' }).catch(() => {});
            await worker.terminate();
          },
        };
      },
    },
  };
}
