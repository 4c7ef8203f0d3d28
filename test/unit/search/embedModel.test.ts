// The shipped sentence model through loadEmbedder: real vectors from the committed files, and every way
// a model can fail (missing, damaged, a runtime that will not load) answered with a code, never a throw.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { loadEmbedder } from '../../../src-main/core/search/embed/loadEmbedder.js';
import { defaultModelDir } from '../../../src-main/core/search/embed/modelFiles.js';
import { isEmbedderFailure, type Embedder } from '../../../src-main/core/search/embed/types.js';
import { tempDir } from '../../helpers/app.js';
import { withDeadline } from '../../helpers/wait.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

function modelCopy(): string {
  const dir = join(tempDir('mws-model-'), 'm');
  cpSync(defaultModelDir(), dir, { recursive: true });
  return dir;
}

describe('the shipped model', () => {
  let e: Embedder;
  beforeAll(async () => {
    const got = await withDeadline(loadEmbedder(), 'the model to load', 60_000);
    if (isEmbedderFailure(got)) throw new Error(got.error.message);
    e = got;
  }, 70_000);
  afterAll(() => e?.close());

  it('gives one unit vector per text, in order, the same every time', async () => {
    const [a, b, c] = await e.embed(['send an email to a colleague', 'Tell me about the philosophy subject.', '']);
    expect(e.dim).toBe(384);
    for (const v of [a!, b!, c!]) expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(1e-4);
    // The same text gives the same vector (what the vector cache relies on).
    const [again] = await e.embed(['send an email to a colleague']);
    expect(Array.from(again!)).toEqual(Array.from(a!));
  });

  it('ranks by meaning: a paraphrase is nearer than an unrelated request', async () => {
    const [q, mail, weather] = await e.embed([
      'write to alice about lunch',
      'mail send message: Send an email message to recipients',
      'weather forecast: Get the forecast for a city',
    ]);
    expect(dot(q!, mail!)).toBeGreaterThan(dot(q!, weather!) + 0.1);
  });

  it('cuts a huge text instead of failing, and orders a mixed batch back', async () => {
    const long = 'deploy the service to production '.repeat(2000);
    const texts = ['short', long, 'another short one', ...Array.from({ length: 20 }, (_, i) => `tool number ${i}`)];
    const out = await e.embed(texts);
    expect(out).toHaveLength(texts.length);
    const [alone] = await e.embed(['another short one']);
    // One text per run: a vector depends on its text only, not on what it was embedded with.
    expect(Array.from(out[2]!)).toEqual(Array.from(alone!));
  });
});

describe('the model runs in a process of its own', () => {
  it('gives the vectors the runtime gives in this process', async () => {
    const texts = ['send an email to a colleague', 'deploy the service to production '.repeat(40), ''];
    const apart = await withDeadline(loadEmbedder(), 'the model to load in its process', 60_000);
    if (isEmbedderFailure(apart)) throw new Error(apart.error.message);
    const here = await withDeadline(loadEmbedder({ importRuntime: () => import('onnxruntime-node') }), 'the model to load here', 60_000);
    if (isEmbedderFailure(here)) throw new Error(here.error.message);
    try {
      const a = await apart.embed(texts, 96);
      const b = await here.embed(texts, 96);
      expect(a.map((v) => Array.from(v))).toEqual(b.map((v) => Array.from(v)));
    } finally {
      await apart.close();
      await here.close();
    }
  }, 90_000);

  it("keeps the proxy's event loop turning while it computes", async () => {
    const e = await withDeadline(loadEmbedder(), 'the model to load', 60_000);
    if (isEmbedderFailure(e)) throw new Error(e.error.message);
    try {
      // Six texts of 128 tokens. The runtime in this process runs each text in one setImmediate, so a
      // 1 ms timer fires once between runs (about six times in all); with the runtime elsewhere it fires
      // all along the computation.
      let ticks = 0;
      let done = false;
      const tick = () => {
        ticks++;
        if (!done) setTimeout(tick, 1);
      };
      const work = e.embed(Array.from({ length: 6 }, (_, i) => `text ${i} ` + 'deploy the service to production '.repeat(40)));
      setTimeout(tick, 1);
      await work;
      done = true;
      expect(ticks).toBeGreaterThan(24);
    } finally {
      await e.close();
    }
  }, 90_000);

  it('a model process that dies during a run fails that run with a sentence; this process goes on', async () => {
    const { modelProcess } = await import('../../../src-main/core/search/embed/modelProcess.js');
    const ort = await modelProcess();
    const session = await withDeadline(ort.InferenceSession.create(join(defaultModelDir(), 'model.onnx'), {}), 'the session', 60_000);
    const ids = new BigInt64Array(128).fill(1012n);
    const feeds = Object.fromEntries(
      session.inputNames.map((n) => [n, new ort.Tensor('int64', n === 'token_type_ids' ? new BigInt64Array(128) : ids, [1, 128])]),
    );
    const runs = Array.from({ length: 20 }, () => session.run(feeds));
    // A worker thread stopped here took the whole process down (SIGABRT).
    process.kill(ort.pid!, 'SIGKILL');
    const settled = await withDeadline(Promise.allSettled(runs), 'every run to settle', 30_000);
    const failed = settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    expect(String(failed[0]!.reason)).toMatch(/search model's process ended \(SIGKILL\)/);
    await expect(session.run(feeds)).rejects.toThrow(/search model's process ended/);
  }, 90_000);

  it('pools where it runs: one vector per text crosses back, the bits pool() gives here', async () => {
    const { modelProcess } = await import('../../../src-main/core/search/embed/modelProcess.js');
    const { poolOutput } = await import('../../../src-main/core/search/embed/onnxEmbedder.js');
    const ort = await modelProcess();
    try {
      const session = await withDeadline(ort.InferenceSession.create(join(defaultModelDir(), 'model.onnx'), {}), 'the session', 60_000);
      const row = [101, 4604, 2019, 10373, 102];
      const feeds = Object.fromEntries(
        session.inputNames.map((n) => [
          n,
          new ort.Tensor('int64', BigInt64Array.from(n === 'token_type_ids' ? row.map(() => 0n) : row.map(BigInt)), [1, row.length]),
        ]),
      );
      const pooling = { output: 'last_hidden_state', batch: [row], len: row.length, dim: 384, how: 'mean' as const };
      const apart = await session.runPooled!(feeds, pooling);
      expect(apart).toHaveLength(1);
      expect(apart[0]).toBeInstanceOf(Float32Array);
      expect(Array.from(apart[0]!)).toEqual(Array.from(poolOutput(await session.run(feeds), pooling)[0]!));
      // Its own heap and allocator are set for a small process (Linux: the allocator's variable).
      const environ = readFileSync(`/proc/${ort.pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain('MALLOC_MMAP_THRESHOLD_=1048576');
      expect(readFileSync(`/proc/${ort.pid}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=1');
    } finally {
      process.kill(ort.pid!, 'SIGKILL');
    }
  }, 90_000);

  it('a closed model fails later runs with a sentence, never a hang', async () => {
    const e = await withDeadline(loadEmbedder(), 'the model to load', 60_000);
    if (isEmbedderFailure(e)) throw new Error(e.error.message);
    const inFlight = e.embed(['a text being embedded while the model closes']);
    await e.close();
    await expect(
      withDeadline(
        inFlight.then(
          () => 'done',
          (err: Error) => err.message,
        ),
        'the run in flight',
        10_000,
      ),
    ).resolves.toMatch(/done|closed/);
    await expect(e.embed(['after'])).rejects.toThrow(/closed/);
  }, 90_000);
});

/** A runtime whose model gives every token the same vector: enough to see what the embedder asks of it. */
function fakeRuntime() {
  return {
    InferenceSession: {
      create: async () => ({
        inputNames: ['input_ids', 'attention_mask'],
        run: async (feeds: Record<string, { dims: readonly number[] }>) => {
          const [n, len] = feeds.input_ids!.dims as [number, number];
          return { last_hidden_state: { data: new Float32Array(n * len * 384).fill(1), dims: [n, len, 384] } };
        },
        release: async () => {},
      }),
    },
    Tensor: class {
      constructor(
        readonly type: string,
        readonly data: unknown,
        readonly dims: number[],
      ) {}
    },
  };
}

describe("the tokenizer is made in the model's process", () => {
  it('gives the token ids the library gives in this process', async () => {
    const { modelProcess } = await import('../../../src-main/core/search/embed/modelProcess.js');
    const ort = await modelProcess();
    const json = readFileSync(join(defaultModelDir(), 'tokenizer.json'), 'utf8');
    const config = readFileSync(join(defaultModelDir(), 'tokenizer_config.json'), 'utf8');
    try {
      const apart = await withDeadline(ort.makeTokenizer!(json, config), 'the tokenizer', 60_000);
      const { Tokenizer } = await import('@huggingface/tokenizers');
      const here = new Tokenizer(JSON.parse(json) as object, JSON.parse(config) as object);
      const texts = ['send an email to a colleague', 'Déployer le service — ünïcode ✓', ''];
      expect(await apart.encode(texts)).toEqual(texts.map((t) => here.encode(t).ids));
      expect(apart.sep).toBe(here.token_to_id('[SEP]'));
    } finally {
      process.kill(ort.pid!, 'SIGKILL');
    }
  }, 90_000);

  it("the embedder uses the runtime's tokenizer when it offers one, and never makes its own", async () => {
    const made: string[] = [];
    const seen: string[][] = [];
    const ort = {
      ...fakeRuntime(),
      makeTokenizer: async (json: string) => {
        made.push(json.slice(0, 1));
        return { sep: 102, encode: async (texts: string[]) => (seen.push(texts), texts.map(() => [101, 7, 102])) };
      },
    };
    const got = await loadEmbedder({ importRuntime: async () => ort });
    if (isEmbedderFailure(got)) throw new Error(got.error.message);
    const [v] = await got.embed(['hello']);
    expect(made).toEqual(['{']);
    expect(seen).toEqual([['probe'], ['hello']]);
    expect(v).toHaveLength(384);
    await got.close();
  });
});

describe("the model process's pooling", () => {
  it('is source that names nothing outside itself: run alone, it pools as pool() does here', async () => {
    const { POOLING_SOURCE } = await import('../../../src-main/core/search/embed/modelProcess.js');
    const { pool } = await import('../../../src-main/core/search/embed/onnxEmbedder.js');
    const values = [0.5, -1, 2, 0.25, 3, -0.75, 9, 9, 9];
    const alone = runInNewContext(
      `${POOLING_SOURCE}\n[poolHere({ o: { data: new Float32Array(${JSON.stringify(values)}) } }, { output: 'o', batch: [[101, 7]], len: 3, dim: 3, how: 'mean' }), poolHere({ o: { data: new Float32Array(${JSON.stringify(values)}) } }, { output: 'o', batch: [[101, 7]], len: 3, dim: 3, how: 'cls' })].map((v) => Array.from(v[0]))`,
    ) as number[][];
    const here = (['mean', 'cls'] as const).map((how) => Array.from(pool(new Float32Array(values), [[101, 7]], 3, 3, how)[0]!));
    expect(alone).toEqual(here);
  });
});

describe("the graph's sha256", () => {
  it('is read piece by piece into one buffer: the digest of the whole, across pieces; undefined when missing', async () => {
    const { sha256OfFile, HASH_PIECE_BYTES } = await import('../../../src-main/core/search/embed/modelFiles.js');
    const bytes = Buffer.alloc(2 * HASH_PIECE_BYTES + 12_345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
    const path = join(tempDir('mws-sha-'), 'model.onnx');
    writeFileSync(path, bytes);
    expect(await sha256OfFile(path)).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await sha256OfFile(`${path}.nothing`)).toBeUndefined();
  });
});

describe('a runtime that pools where it runs', () => {
  it('is asked for vectors, never for the per-token output', async () => {
    const pooled: number[] = [];
    const base = fakeRuntime();
    const ort = {
      ...base,
      InferenceSession: {
        create: async () => ({
          ...(await base.InferenceSession.create()),
          run: async () => {
            throw new Error('the per-token output was asked for');
          },
          runPooled: async (_feeds: unknown, p: { batch: number[][]; dim: number }) => (
            pooled.push(p.batch.length),
            p.batch.map(() => new Float32Array(p.dim).fill(1 / Math.sqrt(p.dim)))
          ),
        }),
      },
    };
    const got = await loadEmbedder({ importRuntime: async () => ort });
    if (isEmbedderFailure(got)) throw new Error(got.error.message);
    const [v] = await got.embed(['hello']);
    expect(v).toHaveLength(384);
    expect(pooled.length).toBeGreaterThan(0);
    await got.close();
  });
});

describe('a tokenizer that answers short', () => {
  it('fails the computation with a sentence instead of leaving texts without a vector', async () => {
    const ort = {
      ...fakeRuntime(),
      makeTokenizer: async () => ({ sep: 102, encode: async (texts: string[]) => texts.slice(1).map(() => [101, 102]) }),
    };
    const got = await loadEmbedder({ importRuntime: async () => ort });
    if (!isEmbedderFailure(got)) throw new Error('loaded with a tokenizer that loses texts');
    expect(got.error.code).toBe('model_failed');
    expect(got.error.message).toContain('the tokenizer gave 0 answers for 1 texts');
  });
});

describe('a model that fails is an answer, not an exception', () => {
  it('missing folder → model_missing', async () => {
    const got = await loadEmbedder({ modelDir: join(tempDir(), 'nothing-here') });
    expect(isEmbedderFailure(got) && got.error.code).toBe('model_missing');
  });

  it('missing model.onnx → model_missing, naming the file', async () => {
    const dir = modelCopy();
    rmSync(join(dir, 'model.onnx'));
    const got = await loadEmbedder({ modelDir: dir });
    if (!isEmbedderFailure(got)) throw new Error('loaded without its file');
    expect(got.error.code).toBe('model_missing');
    expect(got.error.message).toContain('model.onnx');
  });

  it('a damaged model.onnx (bytes changed) → model_corrupt by its sha256', async () => {
    const dir = modelCopy();
    const bytes = readFileSync(join(dir, 'model.onnx'));
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    writeFileSync(join(dir, 'model.onnx'), bytes);
    const got = await loadEmbedder({ modelDir: dir });
    expect(isEmbedderFailure(got) && got.error.code).toBe('model_corrupt');
  });

  it('a truncated model.onnx whose manifest was edited to match → the runtime refuses it: model_corrupt', async () => {
    const dir = modelCopy();
    const bytes = readFileSync(join(dir, 'model.onnx')).subarray(0, 4096);
    writeFileSync(join(dir, 'model.onnx'), bytes);
    const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as { files: Record<string, string> };
    manifest.files['model.onnx'] = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(dir, 'model.json'), JSON.stringify(manifest));
    const got = await loadEmbedder({ modelDir: dir });
    expect(isEmbedderFailure(got) && got.error.code).toBe('model_corrupt');
  });

  it('a tokenizer.json that does not parse, its manifest edited to match → model_corrupt naming the tokenizer, its process ended', async () => {
    const dir = modelCopy();
    const bytes = Buffer.from('{"version": "1.0", "model": ');
    writeFileSync(join(dir, 'tokenizer.json'), bytes);
    const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as { files: Record<string, string> };
    manifest.files['tokenizer.json'] = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(dir, 'model.json'), JSON.stringify(manifest));
    const { modelProcess } = await import('../../../src-main/core/search/embed/modelProcess.js');
    let pid: number | undefined;
    const got = await withDeadline(
      loadEmbedder({ modelDir: dir, importRuntime: async () => modelProcess().then((m) => ((pid = m.pid), m)) }),
      'the load to fail',
      60_000,
    );
    if (!isEmbedderFailure(got)) throw new Error('loaded with a broken tokenizer');
    expect(got.error.code).toBe('model_corrupt');
    expect(got.error.message).toMatch(/tokenizer files .* do not parse: .*JSON.*reinstall/is);
    // The model's process made the session before the tokenizer failed: it does not stay behind.
    await withDeadline(
      (async () => {
        for (;;) {
          try {
            process.kill(pid!, 0);
          } catch {
            return;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })(),
      "the model's process to end",
      10_000,
    );
  }, 90_000);

  it("a model process that ends while it makes the tokenizer → model_failed, not the files' fault", async () => {
    const { modelProcess } = await import('../../../src-main/core/search/embed/modelProcess.js');
    const got = await withDeadline(
      loadEmbedder({
        importRuntime: async () => {
          const m = await modelProcess();
          return {
            ...m,
            makeTokenizer: (json: string, config: string) => (process.kill(m.pid!, 'SIGKILL'), m.makeTokenizer!(json, config)),
          };
        },
      }),
      'the load to fail',
      60_000,
    );
    if (!isEmbedderFailure(got)) throw new Error('loaded without its process');
    expect(got.error.code).toBe('model_failed');
    expect(got.error.message).toMatch(/tokenizer could not be made: the search model's process (ended|could not be reached)/);
    expect(got.error.message).not.toMatch(/reinstall/i);
  }, 90_000);

  it('a damaged manifest or tokenizer → model_corrupt', async () => {
    const dir = modelCopy();
    writeFileSync(join(dir, 'model.json'), '{"name": ');
    const got = await loadEmbedder({ modelDir: dir });
    expect(isEmbedderFailure(got) && got.error.code).toBe('model_corrupt');
  });

  it('an onnxruntime that will not load (no binary for this platform) → runtime_unavailable', async () => {
    const got = await loadEmbedder({
      importRuntime: () => Promise.reject(new Error('Cannot find module ../bin/napi-v6/linux/riscv64/onnxruntime_binding.node')),
    });
    if (!isEmbedderFailure(got)) throw new Error('loaded without a runtime');
    expect(got.error.code).toBe('runtime_unavailable');
    expect(got.error.message).toContain('lexical');
  });

  it('a runtime module of the wrong shape → runtime_unavailable', async () => {
    const got = await loadEmbedder({ importRuntime: async () => ({ something: 'else' }) });
    expect(isEmbedderFailure(got) && got.error.code).toBe('runtime_unavailable');
  });

  it('a runtime that runs out of memory at the first computation → model_failed, session released', async () => {
    let released = false;
    let options: Record<string, unknown> = {};
    const ort = {
      InferenceSession: {
        create: async (_model: unknown, opts: Record<string, unknown>) => (
          (options = opts),
          {
            inputNames: ['input_ids', 'attention_mask'],
            run: () => Promise.reject(new Error('std::bad_alloc')),
            release: async () => void (released = true),
          }
        ),
      },
      Tensor: class {
        constructor(
          readonly type: string,
          readonly data: unknown,
          readonly dims: number[],
        ) {}
      },
    };
    const got = await loadEmbedder({ importRuntime: async () => ort });
    expect(isEmbedderFailure(got) && got.error.code).toBe('model_failed');
    expect(released).toBe(true);
    // What keeps the model's memory small (docs/research/model.md): no arena, no memory patterns, no repacked weights.
    expect(options).toMatchObject({ enableCpuMemArena: false, enableMemPattern: false, extra: { session: { disable_prepacking: '1' } } });
  });
});
