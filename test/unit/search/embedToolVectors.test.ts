// Tool vectors off the request path: loaded only when search is first used, cached by what is embedded,
// rebuilt after a damaged cache, and a model that fails (at load, mid-build, on a query) turns semantic
// search off with one warning — never an exception to the caller.
import { describe, expect, it, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox, type ToolEntry } from '../../../src-main/core/toolbox/toolbox.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { QUERY_CACHE_SIZE, RENEW_AFTER_TOOLS, TOOL_TOKENS, ToolVectors } from '../../../src-main/core/search/embed/toolVectors.js';
import {
  ENCODE_SLICE_VECTORS,
  VECTOR_CACHE_FILE,
  decodeVectors,
  encodeSlices,
  encodeVectors,
  readVectorCache,
  writeVectorCache,
} from '../../../src-main/core/search/embed/vectorCache.js';
import { toolText } from '../../../src-main/core/search/embed/toolText.js';
import { MAX_QUERY_CHARS } from '../../../src-main/core/search/limits.js';
import type { Embedder, EmbedderFailure } from '../../../src-main/core/search/embed/types.js';
import { tempDir } from '../../helpers/app.js';
import { isPaged } from '../../../src-main/core/pagedBytes.js';
import { until, withDeadline } from '../../helpers/wait.js';

const DIM = 8;

/** How many tool texts were made (by ToolVectors and by these tests). */
const texts = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src-main/core/search/embed/toolText.js', async (original) => {
  const m = await original<typeof import('../../../src-main/core/search/embed/toolText.js')>();
  return { ...m, toolText: (...a: Parameters<typeof m.toolText>) => (texts.count++, m.toolText(...a)) };
});

/** An in-memory twin of the model: a vector from the text's hash; counts texts; can be made to fail. */
class TwinEmbedder implements Embedder {
  readonly dim = DIM;
  texts = 0;
  /** The texts read, in order. */
  read: string[] = [];
  closed = false;
  failWith: Error | undefined;
  gate: Promise<void> | undefined;
  constructor(readonly model = 'twin') {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    await this.gate;
    if (this.failWith) throw this.failWith;
    this.texts += texts.length;
    this.read.push(...texts);
    return texts.map((t) => {
      const h = createHash('sha256').update(t).digest();
      const v = Float32Array.from({ length: DIM }, (_, i) => h[i]! - 128);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    });
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const tools = (n: number, prefix = 't'): Tool[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix}${i}`,
    description: `does thing ${i}`,
    inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'which one' } } },
  }));
const entriesOf = (list: Tool[]): ToolEntry[] => [...new Toolbox(new Map([['v', list]]), false).all()];

function setup(stateDir: string | undefined = tempDir(), twin = new TwinEmbedder()) {
  const log = new MemoryLogger();
  let loads = 0;
  const load = async (): Promise<Embedder | EmbedderFailure> => (loads++, twin);
  const vectors = new ToolVectors({ stateDir, log, load });
  return { vectors, twin, log, stateDir, loads: () => loads };
}

describe('ToolVectors', () => {
  it("keys a large toolbox's tools in slices, with the event loop free between them (not in one stall)", async () => {
    const { vectors } = setup(undefined);
    vectors.update(entriesOf(tools(10)));
    vectors.activate();
    await vectors.idle();
    texts.count = 0;
    vectors.update(entriesOf(tools(5000, 'big')));
    // A toolbox change reads no tool's text on the spot: 5,000 of them held the event loop ~140 ms.
    expect(texts.count).toBeLessThan(50);
    // Other work runs while the tools are keyed: some turn of the event loop sees it part done.
    const seen: number[] = [];
    let beating = true;
    const beat = () => {
      seen.push(texts.count);
      if (beating) setImmediate(beat);
    };
    setImmediate(beat);
    await vectors.idle();
    beating = false;
    expect(seen.some((n) => n > 0 && n < 5000)).toBe(true);
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 5000, total: 5000 });
  });

  it('a toolbox that changes just as the keys are done is keyed in slices too, never all at once', async () => {
    const { vectors } = setup(undefined);
    vectors.update(entriesOf(tools(10)));
    vectors.activate();
    await vectors.idle();
    const big = entriesOf(tools(5000, 'late'));
    type Keys = { keyAll(entries: readonly ToolEntry[], gen: number): Promise<boolean> };
    const proto = ToolVectors.prototype as unknown as Keys;
    const keyAll = proto.keyAll;
    let atChange = -1;
    let afterChange = -1;
    const spy = vi.spyOn(proto, 'keyAll').mockImplementationOnce(async function (this: Keys, entries, gen) {
      const done = await keyAll.call(this, entries, gen);
      // The new toolbox arrives between the last slice and what follows it.
      vectors.update(big);
      atChange = texts.count;
      setImmediate(() => (afterChange = texts.count));
      return done;
    });
    vectors.update(entriesOf(tools(12)));
    await until(() => afterChange >= 0, 'the turn after the toolbox changed', 5000);
    expect(afterChange - atChange).toBeLessThan(2500);
    spy.mockRestore();
    await vectors.idle();
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 5000, total: 5000 });
  });

  it('loads nothing until search is first used, then embeds every tool in the background', async () => {
    const { vectors, twin, loads } = setup();
    const entries = entriesOf(tools(40));
    vectors.update(entries);
    expect(vectors.status()).toMatchObject({ state: 'idle', embedded: 0, total: 40, warning: undefined });
    expect(loads()).toBe(0);
    expect(await vectors.embedQuery('anything')).toBeUndefined();
    vectors.activate();
    vectors.activate();
    await vectors.idle();
    expect(loads()).toBe(1);
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 40, total: 40 });
    expect(twin.texts).toBe(40);
    const v = vectors.vector(entries[3]!)!;
    expect(Array.from(v)).toEqual(Array.from((await twin.embed([toolText(entries[3]!)]))[0]!));
    expect(await vectors.embedQuery('find thing')).toHaveLength(DIM);
  });

  it("puts a model's query instruction before queries only, never before a tool's text", async () => {
    const twin = Object.assign(new TwinEmbedder('instructed'), { queryPrefix: 'Find: ' });
    const { vectors } = setup(tempDir(), twin);
    const entries = entriesOf(tools(3));
    vectors.update(entries);
    vectors.activate();
    await vectors.idle();
    await vectors.embedQuery('send the invoice');
    expect(twin.read.filter((t) => t.startsWith('Find: '))).toEqual(['Find: send the invoice']);
    expect(twin.read).toContain(toolText(entries[0]!));
  });

  it('keeps the latest query vectors (an LRU): a query asked again is not embedded again', async () => {
    const { vectors, twin } = setup(undefined);
    vectors.update(entriesOf(tools(2)));
    vectors.activate();
    await vectors.idle();
    const base = twin.texts;
    const a = await vectors.embedQuery('find thing');
    expect(await vectors.embedQuery('find thing')).toBe(a);
    expect(twin.texts).toBe(base + 1);
    for (let i = 0; i < QUERY_CACHE_SIZE; i++) await vectors.embedQuery(`other ${i}`);
    expect(twin.texts).toBe(base + 1 + QUERY_CACHE_SIZE);
    // 'find thing' was the least recently used: it went.
    await vectors.embedQuery('find thing');
    expect(twin.texts).toBe(base + 2 + QUERY_CACHE_SIZE);
    expect(vectors.model()).toBe('twin');
  });

  it("reads a query without its quoted spans (a title's meaning is not the tool's), numbers kept; a query of only a quote as written", async () => {
    const { vectors, twin } = setup(undefined);
    vectors.update(entriesOf(tools(2)));
    vectors.activate();
    await vectors.idle();
    twin.read = [];
    await vectors.embedQuery('information about the book "The Curious Case of the Talking Animals"');
    await vectors.embedQuery('book a 30 minute call with “Ana Lima” on friday');
    await vectors.embedQuery('"just a quoted title"');
    expect(twin.read).toEqual(['information about the book', 'book a 30 minute call with on friday', '"just a quoted title"']);
    // A megabyte of quotes is cut to a search's query length before its quotes are looked for.
    twin.read = [];
    await vectors.embedQuery('“'.repeat(1_000_000));
    expect(twin.read[0]!.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
  });

  it('reads a tool text up to the token limit it is given (the limit is part of the cache key)', async () => {
    const limits: Array<number | undefined> = [];
    const twin = new TwinEmbedder();
    const embed = twin.embed.bind(twin);
    twin.embed = (texts: string[], max?: number) => (limits.push(max), embed(texts));
    const short = new ToolVectors({ stateDir: undefined, log: new MemoryLogger(), load: async () => twin, toolTokens: 64 });
    const plain = new ToolVectors({ stateDir: undefined, log: new MemoryLogger(), load: async () => twin });
    const entries = entriesOf(tools(1));
    for (const v of [short, plain]) {
      v.update(entries);
      v.activate();
      await v.idle();
    }
    expect(limits).toEqual([64, TOOL_TOKENS]);
    const key = (v: ToolVectors) => (v as unknown as { keyOf(e: ToolEntry): string }).keyOf(entries[0]!);
    expect(key(short)).toMatch(/^[0-9a-f]{32}$/);
    expect(key(short)).not.toBe(key(plain));
  });

  it('a restart reads the vectors from the cache and embeds only the tools that changed', async () => {
    const dir = tempDir();
    const first = setup(dir);
    first.vectors.update(entriesOf(tools(30)));
    first.vectors.activate();
    await first.vectors.idle();
    expect(existsSync(join(dir, VECTOR_CACHE_FILE))).toBe(true);

    const list = tools(30);
    list[5] = { ...list[5]!, description: 'now does something else' };
    const second = setup(dir);
    second.vectors.update(entriesOf([...list, ...tools(2, 'new')]));
    second.vectors.activate();
    await second.vectors.idle();
    expect(second.twin.texts).toBe(3);
    expect(second.vectors.status()).toMatchObject({ state: 'ready', embedded: 32, total: 32 });
    // The file holds the toolbox it was written for: the old definition of t5 is gone.
    const cached = decodeVectors(readFileSync(join(dir, VECTOR_CACHE_FILE)));
    expect('vectors' in cached && cached.vectors.size).toBe(32);
  });

  it('a damaged cache is moved aside with one warning and rebuilt', async () => {
    const dir = tempDir();
    const first = setup(dir);
    first.vectors.update(entriesOf(tools(10)));
    first.vectors.activate();
    await first.vectors.idle();
    const path = join(dir, VECTOR_CACHE_FILE);
    const bytes = readFileSync(path);
    bytes[40] = bytes[40]! ^ 1;
    writeFileSync(path, bytes);

    const second = setup(dir);
    second.vectors.update(entriesOf(tools(10)));
    second.vectors.activate();
    await second.vectors.idle();
    expect(second.twin.texts).toBe(10);
    expect(second.log.lines.filter((l) => l.startsWith('warn:'))).toHaveLength(1);
    expect(second.log.lines[0]).toContain('damaged');
    expect(readdirSync(dir).some((f) => f.startsWith(`${VECTOR_CACHE_FILE}.damaged-`))).toBe(true);
    expect('vectors' in decodeVectors(readFileSync(path))).toBe(true);
  });

  it('cached vectors of another model are not used', async () => {
    const dir = tempDir();
    const first = setup(dir, new TwinEmbedder('old-model'));
    first.vectors.update(entriesOf(tools(10)));
    first.vectors.activate();
    await first.vectors.idle();
    const second = setup(dir, new TwinEmbedder('new-model'));
    second.vectors.update(entriesOf(tools(10)));
    second.vectors.activate();
    await second.vectors.idle();
    expect(second.twin.texts).toBe(10);
  });

  it('makes the cache file a slice of vectors at a time, byte for byte the format it always had', async () => {
    const n = 2 * ENCODE_SLICE_VECTORS + 34;
    const dim = 8;
    const vs = new Map(Array.from({ length: n }, (_, i) => [`k${i}`, Float32Array.from({ length: dim }, (_, j) => i + j / 10)] as const));
    // The format as written before: magic, header length, header, vectors, sha256 of all that.
    const header = Buffer.from(JSON.stringify({ model: 'm', dim, keys: [...vs.keys()] }), 'utf8');
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length);
    const head = Buffer.concat([Buffer.from('MWSVEC1\n'), len, header, ...[...vs.values()].map((v) => Buffer.from(v.buffer))]);
    const reference = Buffer.concat([head, createHash('sha256').update(head).digest()]);
    const slices = encodeSlices('m', dim, vs);
    let yields = 0;
    let r = slices.next();
    // The map changes between slices: the file is the map as it was when writing began.
    vs.clear();
    for (; !r.done; r = slices.next()) yields++;
    expect(yields).toBe(Math.ceil(n / ENCODE_SLICE_VECTORS));
    expect(r.value.equals(reference)).toBe(true);
    const path = join(tempDir(), VECTOR_CACHE_FILE);
    const again = new Map(
      Array.from({ length: n }, (_, i) => [`k${i}`, Float32Array.from({ length: dim }, (_, j) => i + j / 10)] as const),
    );
    await writeVectorCache(path, 'm', dim, again);
    expect(readFileSync(path).equals(reference)).toBe(true);
  });

  it('a truncated, empty or foreign cache file decodes as damaged, never throws', () => {
    const good = encodeVectors('m', 2, new Map([['k', Float32Array.from([0.6, 0.8])]]));
    for (const bad of [
      Buffer.alloc(0),
      good.subarray(0, good.length - 5),
      Buffer.from('{"json": true}'),
      Buffer.concat([good, Buffer.from([0])]),
    ]) {
      expect('damaged' in decodeVectors(bad)).toBe(true);
    }
    const ok = decodeVectors(good);
    expect('vectors' in ok && Array.from(ok.vectors.get('k')!).map((x) => x.toFixed(1))).toEqual(['0.6', '0.8']);
  });

  it('a toolbox that changes while tools are being embedded ends with exactly the new toolbox', async () => {
    const { vectors, twin } = setup();
    let open!: () => void;
    twin.gate = new Promise((r) => (open = r));
    vectors.update(entriesOf(tools(50)));
    vectors.activate();
    await until(() => vectors.status().state === 'loading', 'the build to start');
    const next = entriesOf([...tools(20), ...tools(20, 'other')]);
    vectors.update(next);
    open();
    await vectors.idle();
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 40, total: 40 });
    for (const e of next) expect(vectors.vector(e)).toBeDefined();
  });

  it('a model that will not load: search stays lexical, status off with the reason, one warning', async () => {
    const log = new MemoryLogger();
    const message = 'onnxruntime would not load on linux-riscv64: no binary. Search stays lexical (by words, without the model).';
    const vectors = new ToolVectors({ stateDir: tempDir(), log, load: async () => ({ error: { code: 'runtime_unavailable', message } }) });
    const entries = entriesOf(tools(5));
    vectors.update(entries);
    vectors.activate();
    await vectors.idle();
    vectors.activate();
    expect(vectors.status()).toEqual({ state: 'off', embedded: 0, total: 5, warning: message });
    expect(await vectors.embedQuery('x')).toBeUndefined();
    expect(vectors.vector(entries[0]!)).toBeUndefined();
    expect(log.lines).toEqual([`warn: ${message}`]);
  });

  it('a loader that throws is treated like one that failed', async () => {
    const log = new MemoryLogger();
    const vectors = new ToolVectors({ stateDir: undefined, log, load: () => Promise.reject(new Error('boom')) });
    vectors.activate();
    await vectors.idle();
    expect(vectors.status().state).toBe('off');
    expect(log.lines).toHaveLength(1);
  });

  it('out of memory while embedding tools: off, vectors freed, model closed, one warning', async () => {
    const { vectors, twin, log } = setup(undefined);
    twin.failWith = new RangeError('Array buffer allocation failed');
    vectors.update(entriesOf(tools(40)));
    vectors.activate();
    await vectors.idle();
    expect(vectors.status()).toMatchObject({ state: 'off', embedded: 0 });
    expect(vectors.status().warning).toContain('Array buffer allocation failed');
    expect(twin.closed).toBe(true);
    expect(await vectors.embedQuery('x')).toBeUndefined();
    vectors.update(entriesOf(tools(41)));
    await vectors.idle();
    expect(log.lines.filter((l) => l.startsWith('warn:'))).toHaveLength(1);
  });

  it('a query that fails in the runtime answers undefined (lexical), and turns the model off once', async () => {
    const { vectors, twin, log } = setup(undefined);
    vectors.update(entriesOf(tools(3)));
    vectors.activate();
    await vectors.idle();
    twin.failWith = new Error('std::bad_alloc');
    expect(await vectors.embedQuery('a')).toBeUndefined();
    expect(await vectors.embedQuery('b')).toBeUndefined();
    expect(vectors.status().state).toBe('off');
    expect(log.lines).toHaveLength(1);
  });

  it('a state folder that cannot be written keeps the vectors in memory and says so once', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'blocker'), 'a file where a folder should be');
    const { vectors, log } = setup(join(dir, 'blocker', 'state'));
    vectors.update(entriesOf(tools(4)));
    vectors.activate();
    await vectors.idle();
    expect(vectors.status().state).toBe('ready');
    expect(log.lines.filter((l) => l.includes('could not be saved'))).toHaveLength(1);
  });

  it('enabled: false never loads the model', async () => {
    let loads = 0;
    const vectors = new ToolVectors({
      stateDir: undefined,
      log: new MemoryLogger(),
      enabled: () => false,
      load: async () => (loads++, new TwinEmbedder()),
    });
    vectors.activate();
    await vectors.idle();
    expect(loads).toBe(0);
    expect(vectors.status().state).toBe('idle');
  });

  it('stop closes the model and ends the build', async () => {
    const { vectors, twin } = setup(undefined);
    vectors.update(entriesOf(tools(100)));
    vectors.activate();
    await vectors.stop();
    expect(twin.closed).toBe(true);
    expect(await vectors.embedQuery('x')).toBeUndefined();
  });

  it('stop does not wait for a run under way: the model is closed first, and says nothing of the run it ended', async () => {
    const { vectors, twin, log } = setup(undefined);
    // A run that would never end on its own, as on a machine with no core to spare for the model.
    twin.gate = new Promise<void>(() => {});
    vectors.update(entriesOf(tools(40)));
    vectors.activate();
    await until(() => ((vectors as unknown as { inUse: number }).inUse > 0 ? true : undefined), 'the build to reach the model');
    const closeOriginal = twin.close.bind(twin);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    twin.close = async () => {
      await closeOriginal();
      release();
    };
    const stopping = vectors.stop();
    await withDeadline(released, 'the model closed by stop', 5_000);
    expect(twin.closed).toBe(true);
    expect(log.lines.filter((l) => l.startsWith('warn'))).toEqual([]);
    void stopping;
  });

  describe('the model closed after a while without a run', () => {
    /** Timers on injected time: `fire()` runs what is due as if the idle time had passed. */
    function idleSetup(opts: { stateDir?: string } = {}) {
      const twin = new TwinEmbedder();
      const log = new MemoryLogger();
      let loads = 0;
      const clock = { now: 0 };
      /** What the next loads give: the twin, a failure, or another model. */
      const next: Array<() => Embedder | EmbedderFailure> = [];
      const timers = new Set<() => void>();
      const later = (f: () => void) => {
        timers.add(f);
        return () => void timers.delete(f);
      };
      const fire = () => {
        const due = [...timers];
        timers.clear();
        for (const f of due) f();
      };
      const vectors = new ToolVectors({
        stateDir: opts.stateDir,
        log,
        load: async () => (loads++, next.shift()?.() ?? ((twin.closed = false), twin)),
        idleMs: 1000,
        later,
        now: () => clock.now,
      });
      return { vectors, twin, fire, loads: () => loads, timers, clock, next, log };
    }

    it('closes the model, keeps the vectors and the fusion settings, and loads it again for the next query', async () => {
      const { vectors, twin, fire, loads } = idleSetup();
      const entries = entriesOf(tools(20));
      vectors.update(entries);
      vectors.activate();
      await vectors.idle();
      const before = await vectors.embedQuery('first question');
      expect(vectors.ready()).toBe(true);
      fire();
      expect(twin.closed).toBe(true);
      // Still ready: search ranks by meaning with the vectors it has; only the query needs the model.
      expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 20, total: 20 });
      expect(vectors.model()).toBe('twin');
      expect(vectors.vector(entries[0]!)).toBeDefined();
      // A cached query needs no model.
      expect(await vectors.embedQuery('first question')).toBe(before);
      expect(loads()).toBe(1);
      const [v, w] = await Promise.all([vectors.embedQuery('another question'), vectors.embedQuery('a third one')]);
      expect(v).toBeDefined();
      expect(w).toBeDefined();
      expect(loads()).toBe(2);
      expect(twin.closed).toBe(false);
      await vectors.stop();
    });

    it('never closes the model under a run, and a toolbox change while closed loads it to embed the new tools', async () => {
      const { vectors, twin, fire, loads } = idleSetup();
      vectors.update(entriesOf(tools(10)));
      vectors.activate();
      await vectors.idle();
      let open!: () => void;
      twin.gate = new Promise<void>((r) => (open = r));
      const q = vectors.embedQuery('held');
      await until(() => ((vectors as unknown as { inUse: number }).inUse > 0 ? true : undefined), 'the query to reach the model');
      fire();
      expect(twin.closed).toBe(false);
      open();
      twin.gate = undefined;
      await q;
      fire();
      expect(twin.closed).toBe(true);
      vectors.update(entriesOf([...tools(10), ...tools(5, 'new')]));
      await vectors.idle();
      expect(loads()).toBe(2);
      expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 15, total: 15 });
      await vectors.stop();
    });

    it('a start again that fails keeps the vectors, answers by words, and is tried again later', async () => {
      const { vectors, fire, loads, clock, next, log } = idleSetup();
      vectors.update(entriesOf(tools(10)));
      vectors.activate();
      await vectors.idle();
      fire();
      next.push(() => ({ error: { code: 'model_corrupt', message: 'The search model did not start within 120 s.' } }));
      expect(await vectors.embedQuery('while it cannot start')).toBeUndefined();
      expect(loads()).toBe(2);
      expect(log.lines.some((l) => /did not start within 120 s\. Trying again in 60 s/.test(l))).toBe(true);
      // Not off: the vectors stay and the status is still ready; no new try before the wait is over.
      expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 10, total: 10, warning: undefined });
      expect(await vectors.embedQuery('too soon')).toBeUndefined();
      expect(loads()).toBe(2);
      clock.now += 60_000;
      expect(await vectors.embedQuery('once the wait is over')).toBeDefined();
      expect(loads()).toBe(3);
      await vectors.stop();
    });

    it('tools that came while the model was closed get vectors once a failed start again succeeds, with no query asking', async () => {
      const { vectors, fire, loads, clock, next } = idleSetup();
      vectors.update(entriesOf(tools(10)));
      vectors.activate();
      await vectors.idle();
      fire();
      next.push(() => ({ error: { code: 'model_failed', message: 'The search model failed its first computation.' } }));
      vectors.update(entriesOf([...tools(10), ...tools(2, 'new')]));
      await vectors.idle();
      expect(loads()).toBe(2);
      expect(vectors.status()).toMatchObject({ state: 'loading', embedded: 10, total: 12 });
      clock.now += 60_000;
      fire();
      await vectors.idle();
      expect(loads()).toBe(3);
      expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 12, total: 12 });
      await vectors.stop();
    });

    it('another model started again (the config changed meanwhile) makes its vectors again and never saves the old ones under its name', async () => {
      const stateDir = tempDir();
      const { vectors, fire, next } = idleSetup({ stateDir });
      const entries = entriesOf(tools(6));
      vectors.update(entries);
      vectors.activate();
      await vectors.idle();
      const old = vectors.vector(entries[0]!);
      fire();
      const other = new TwinEmbedder('other');
      // Its vectors differ from the twin's for the same text.
      other.embed = async (texts: string[]) => texts.map(() => Float32Array.from({ length: DIM }, (_, i) => (i === 0 ? 1 : 0)));
      next.push(() => other);
      await vectors.embedQuery('a query after the change');
      await vectors.idle();
      expect(vectors.model()).toBe('other');
      expect(vectors.status()).toMatchObject({ state: 'ready', embedded: 6, total: 6 });
      expect(Array.from(vectors.vector(entries[0]!)!)).not.toEqual(Array.from(old!));
      const saved = await readVectorCache(join(stateDir, VECTOR_CACHE_FILE), new MemoryLogger());
      expect(saved?.model).toBe('other');
      expect(Array.from(saved!.vectors.values())[0]![0]).toBe(1);
      await vectors.stop();
    });
  });
});

describe('a model process started again after it embedded RENEW_AFTER_TOOLS tools', () => {
  /** Like the model's process: a run after close() fails. */
  class ModelProcess extends TwinEmbedder {
    override async embed(texts: string[]): Promise<Float32Array[]> {
      const out = await super.embed(texts);
      if (this.closed) throw new Error('the search model was closed');
      return out;
    }
  }

  /** Each load a new process, unless `plan[n]` says otherwise for the n-th load (a failure, or a load that waits). */
  function setup() {
    const log = new MemoryLogger();
    const procs: ModelProcess[] = [];
    const plan: Record<number, () => Promise<Embedder | EmbedderFailure>> = {};
    let loads = 0;
    // RENEW_QUIET_MS on injected time: `quiet()` runs what is due as if no run had been asked for that long.
    const timers = new Set<() => void>();
    const quiet = () => {
      const due = [...timers];
      timers.clear();
      for (const f of due) f();
    };
    const vectors = new ToolVectors({
      stateDir: undefined,
      log,
      idleMs: 0,
      later: (f) => (timers.add(f), () => void timers.delete(f)),
      load: async () => {
        const custom = plan[++loads];
        if (custom) return custom();
        const p = new ModelProcess();
        procs.push(p);
        return p;
      },
    });
    return { vectors, procs, plan, log, loads: () => loads, quiet, timers };
  }

  /** A build of RENEW_AFTER_TOOLS tools and the quiet time after it, the fresh process's start held: answers what gives it. */
  async function freshStartHeld({ vectors, plan, quiet }: ReturnType<typeof setup>): Promise<(e: Embedder) => void> {
    let give: ((e: Embedder) => void) | undefined;
    plan[2] = () => new Promise<Embedder>((r) => (give = r));
    vectors.update(entriesOf(tools(RENEW_AFTER_TOOLS)));
    vectors.activate();
    await vectors.idle();
    quiet();
    await until(() => (give ? true : undefined), 'the fresh process to be asked for');
    return give!;
  }

  /** Holds the runs of `p` at a gate until `open()`, then goes on with `then` (its own embed by default). */
  function hold(p: ModelProcess, then: (texts: string[]) => Promise<Float32Array[]> = p.embed.bind(p)) {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let reached = false;
    p.embed = async (texts: string[]) => {
      reached = true;
      await gate;
      return then(texts);
    };
    return { open, reached: () => (reached ? true : undefined) };
  }

  it('counts every build of one process, starts the fresh one once no run is asked for a while, before the old one goes, and keeps the vectors', async () => {
    const { vectors, procs, quiet } = setup();
    vectors.update(entriesOf(tools(RENEW_AFTER_TOOLS - 1)));
    vectors.activate();
    await vectors.idle();
    // One short of the bound: the process stays.
    expect(procs.map((p) => p.closed)).toEqual([false]);
    const all = entriesOf([...tools(RENEW_AFTER_TOOLS - 1), ...tools(1, 'new')]);
    vectors.update(all);
    await vectors.idle();
    // Searches right after the build: the process stays until they stop for RENEW_QUIET_MS.
    expect(await vectors.embedQuery('right after the build')).toBeDefined();
    expect(procs).toHaveLength(1);
    quiet();
    await until(() => (procs.length === 2 && procs[0]!.closed ? true : undefined), 'the fresh process to take over');
    expect(procs[1]!.closed).toBe(false);
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: RENEW_AFTER_TOOLS, total: RENEW_AFTER_TOOLS });
    expect(vectors.vector(all[0]!)).toBeDefined();
    expect(await vectors.embedQuery('a question after the build')).toBeDefined();
    // Nothing was embedded twice (the old process read the tools and the query asked before the quiet time).
    expect(procs[0]!.texts).toBe(RENEW_AFTER_TOOLS + 1);
    vectors.update(entriesOf([...tools(RENEW_AFTER_TOOLS - 1), ...tools(3, 'new')]));
    await vectors.idle();
    expect(procs).toHaveLength(2);
    await vectors.stop();
  });

  it('a query on the old process when the build ends finishes on it; the old one goes after', async () => {
    const { vectors, procs, quiet } = setup();
    vectors.update(entriesOf(tools(10)));
    vectors.activate();
    await vectors.idle();
    let open!: () => void;
    const held = new Promise<void>((r) => (open = r));
    const embed = procs[0]!.embed.bind(procs[0]!);
    procs[0]!.embed = async (texts: string[]) => (texts[0] === 'held' && (await held), embed(texts));
    const q = vectors.embedQuery('held');
    await until(() => ((vectors as unknown as { inUse: number }).inUse > 0 ? true : undefined), 'the query to reach the model');
    vectors.update(entriesOf(tools(RENEW_AFTER_TOOLS)));
    await vectors.idle();
    expect(procs.map((p) => p.closed)).toEqual([false]);
    open();
    expect(await q).toBeDefined();
    quiet();
    await until(() => (procs.length === 2 && procs[0]!.closed ? true : undefined), 'the fresh process to take over after the query');
    expect(vectors.status().state).toBe('ready');
    await vectors.stop();
  });

  it('a query asked at any turn as the build ends is answered, never by a process closed under it (search stays on)', async () => {
    for (let turns = 0; turns < 12; turns++) {
      const { vectors, procs, quiet } = setup();
      vectors.update(entriesOf(tools(10)));
      vectors.activate();
      await vectors.idle();
      // The build's last slice waits at a gate; the query comes `turns` microtasks after it opens.
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      let atGate = false;
      const embed = procs[0]!.embed.bind(procs[0]!);
      procs[0]!.embed = async (texts: string[]) => {
        if (texts.some((t) => t.startsWith(`t${RENEW_AFTER_TOOLS - 1}`))) {
          atGate = true;
          await gate;
        }
        return embed(texts);
      };
      vectors.update(entriesOf(tools(RENEW_AFTER_TOOLS)));
      await until(() => (atGate ? true : undefined), 'the last slice to reach the model');
      open();
      for (let i = 0; i < turns; i++) await Promise.resolve();
      expect(await vectors.embedQuery(`question ${turns}`)).toBeDefined();
      await vectors.idle();
      quiet();
      await until(() => (procs.length === 2 && procs[0]!.closed ? true : undefined), 'the fresh process to take over');
      expect(await vectors.embedQuery(`another question ${turns}`)).toBeDefined();
      expect(vectors.status().state).toBe('ready');
      await vectors.stop();
    }
  });

  it('a fresh process that cannot start leaves the old one answering, with a line in the log and no retry at each query', async () => {
    const { vectors, procs, plan, log, loads, quiet, timers } = setup();
    // The first load is the build's process; the second, the fresh one, fails.
    plan[2] = async () => ({ error: { code: 'model_failed', message: 'The search model did not start within 120 s.' } });
    vectors.update(entriesOf(tools(RENEW_AFTER_TOOLS)));
    vectors.activate();
    await vectors.idle();
    quiet();
    await until(
      () => (log.lines.some((l) => /did not start within 120 s\. The process that built the vectors goes on/.test(l)) ? true : undefined),
      'the failed start to be logged',
    );
    expect(await vectors.embedQuery('one')).toBeDefined();
    expect(await vectors.embedQuery('two')).toBeDefined();
    expect(timers.size).toBe(0);
    expect(loads()).toBe(2);
    expect(procs.map((p) => p.closed)).toEqual([false]);
    expect(log.lines.filter((l) => l.startsWith('warn'))).toEqual([]);
    expect(vectors.status().state).toBe('ready');
    await vectors.stop();
  });

  it('stopping while the fresh process starts closes both', async () => {
    const s = setup();
    const give = await freshStartHeld(s);
    const late = new ModelProcess();
    let stopped = false;
    const stopping = s.vectors.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    // Stopping waits for the process being started: once stopped, no process of the model is left.
    expect(stopped).toBe(false);
    give(late);
    await stopping;
    expect(late.closed).toBe(true);
    expect(s.procs[0]!.closed).toBe(true);
  });

  it('a fresh process of another model (the files changed meanwhile) is closed, and no other is started at each query after', async () => {
    const { vectors, procs, plan, loads, quiet, timers } = setup();
    plan[2] = async () => new ModelProcess('other');
    vectors.update(entriesOf(tools(RENEW_AFTER_TOOLS)));
    vectors.activate();
    await vectors.idle();
    quiet();
    await until(() => (loads() === 2 ? true : undefined), 'the fresh process to be asked for');
    await until(
      () => (timers.size === 0 && !(vectors as unknown as { renewal?: unknown }).renewal ? true : undefined),
      'the fresh one to be turned down',
    );
    for (const q of ['one', 'two', 'three']) {
      expect(await vectors.embedQuery(q)).toBeDefined();
      quiet();
    }
    expect(loads()).toBe(2);
    expect(procs.map((p) => p.closed)).toEqual([false]);
    expect(vectors.model()).toBe('twin');
    await vectors.stop();
  });

  it('a process replaced during a build goes when its own slice ends, not when the build does', async () => {
    const s = setup();
    const { vectors, procs } = s;
    const give = await freshStartHeld(s);
    // A new toolbox while the fresh process starts: its first slice runs on the old process, held there.
    const onOld = hold(procs[0]!);
    const fresh = new ModelProcess();
    const onFresh = hold(fresh);
    vectors.update(entriesOf([...tools(RENEW_AFTER_TOOLS), ...tools(40, 'new')]));
    await until(onOld.reached, 'a slice on the old process');
    give(fresh);
    onOld.open();
    await until(onFresh.reached, 'the next slice on the fresh process');
    // The build goes on (held on the fresh process), and the old process has already gone.
    expect(procs[0]!.closed).toBe(true);
    expect(fresh.closed).toBe(false);
    onFresh.open();
    await vectors.idle();
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: RENEW_AFTER_TOOLS + 40, total: RENEW_AFTER_TOOLS + 40 });
    await vectors.stop();
  });

  it('a replaced process that fails its last slice: the slice is done again on the fresh one, and search stays on', async () => {
    const s = setup();
    const { vectors, procs } = s;
    const give = await freshStartHeld(s);
    const onOld = hold(procs[0]!, async () => {
      throw new Error("the search model's process ended (SIGKILL)");
    });
    vectors.update(entriesOf([...tools(RENEW_AFTER_TOOLS), ...tools(40, 'new')]));
    await until(onOld.reached, 'a slice on the old process');
    const fresh = new ModelProcess();
    give(fresh);
    await until(
      () => ((vectors as unknown as { embedder: unknown }).embedder === fresh ? true : undefined),
      'the fresh process to take over',
    );
    onOld.open();
    await vectors.idle();
    expect(vectors.status()).toMatchObject({ state: 'ready', embedded: RENEW_AFTER_TOOLS + 40, total: RENEW_AFTER_TOOLS + 40 });
    expect(fresh.texts).toBe(40);
    expect(await vectors.embedQuery('after it')).toBeDefined();
    await vectors.stop();
  });
});

describe('the vector cache in paged memory', () => {
  it('encodes, reads and keeps a large cache in pages of its own, not in blocks of the C allocator (pagedBytes.ts)', async () => {
    // 300 tools × 384 floats: 460 KB, over the size from which the allocator's threshold would move.
    const vectors = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++)
      vectors.set(
        `t${i}`,
        Float32Array.from({ length: 384 }, (_, j) => Math.sin(i + j)),
      );
    const bytes = encodeVectors('m', 384, vectors);
    expect(isPaged(bytes)).toBe(true);
    const dir = tempDir();
    const path = join(dir, VECTOR_CACHE_FILE);
    await writeVectorCache(path, 'm', 384, vectors);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    const read = await readVectorCache(path, new MemoryLogger());
    expect(read?.vectors.size).toBe(300);
    expect(Array.from(read!.vectors.get('t299')!)).toEqual(Array.from(vectors.get('t299')!));
    expect(isPaged(read!.vectors.get('t0')!)).toBe(true);
  });
});
