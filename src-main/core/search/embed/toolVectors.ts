// Tool vectors for semantic search, kept off the request path: the model loads when search is first used
// (activate), the toolbox's tools are embedded in slices in the background (cache first), and a model that
// fails turns semantic search off with one warning — search then answers lexically, never with an error.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../../log.js';
import { errorMessage } from '../../errors.js';
import type { ToolEntry } from '../../toolbox/toolbox.js';
import { loadEmbedder } from './loadEmbedder.js';
import { toolText } from './toolText.js';
import { withoutQuotedSpans } from '../queryArguments.js';
import { capQuery } from '../limits.js';
import { VECTOR_CACHE_FILE, readVectorCache, writeVectorCache } from './vectorCache.js';
import { isEmbedderFailure, type Embedder, type EmbedderFailure, type EmbeddingStatus } from './types.js';
import { TimeSlicer } from '../../timeSlice.js';

/** Tools embedded per slice: one model run; the event loop is free during it. */
export const EMBED_SLICE_TOOLS = 16;
/** The cache is written after this many new vectors too, so a long first build survives a restart. */
export const CACHE_CHECKPOINT_TOOLS = 1024;
/**
 * Tokens of a tool's text the model reads (its name, title and description come first, parameters
 * after). The model's limit is 128; 96 was no worse on any tuning set and reads fewer
 * tokens; 64 lost on the learning set (figures: docs/research/model.md).
 */
export const TOOL_TOKENS = 96;
/** Query vectors kept (~1.5 kB each): a query asked again, and the learned pair after a call, skip the model. */
export const QUERY_CACHE_SIZE = 256;
/**
 * The model's process ends after this long without a model run, and its memory (~100 MB: the runtime,
 * the weights, a node) goes back to the system whole; the next query starts it again (~0.5 s) and waits
 * for it. A tray app spends most of its life here.
 */
export const MODEL_IDLE_MS = 10 * 60_000;
/**
 * A model process that has embedded this many tools is replaced by a fresh one: the runtime keeps what a
 * long build allocated (a process that embedded 5,000 tools stayed at ~240 MB, a fresh one with the same
 * vectors is ~112 MB: bench/scale), and an agent that searches every few minutes would keep it for good,
 * as the idle close never comes.
 */
export const RENEW_AFTER_TOOLS = 500;
/**
 * The replacement starts once no model run has been asked for this long: starting a process takes a core
 * for ~0.5 s, which searches right after a build waited for (search p99 30–42 ms against 18–20 in bench/scale).
 */
export const RENEW_QUIET_MS = 2_000;
/** A query waits this long at most for the model to start again; past it, it is answered by words. */
export const RELOAD_WAIT_MS = 5_000;
/** After a failed start again, the next try waits this long (doubled each time, at most MODEL_IDLE_MS). */
export const RELOAD_RETRY_MS = 60_000;
/**
 * How long computing tools' keys may hold the event loop at once: a toolbox's keys (its tools' texts,
 * hashed) took ~140 ms at 5,000 tools in one go, a stall every call and search of the moment waited out.
 * A request takes several turns of the loop (headers, body, answer), and may wait a slice at each.
 */
export const KEY_SLICE_MS = 4;
/** Bumped when toolText changes what is read of a tool: cached vectors of the old text are not reused. */
const TEXT_VERSION = '1';

export type ToolVectorsOptions = {
  /** Where search-vectors.bin lives; undefined keeps vectors in memory only (demo, tests). */
  stateDir: string | undefined;
  log: Logger;
  /** Loads the model (default: the shipped one through loadEmbedder). */
  load?: () => Promise<Embedder | EmbedderFailure>;
  /** What of a tool is embedded (default toolText). */
  text?: (e: ToolEntry) => string;
  /** false: the model is never loaded (search stays lexical, status idle). */
  enabled?: () => boolean;
  /** The current toolbox's tools, read at activate() (later changes come through update). */
  entries?: () => readonly ToolEntry[];
  /** Tokens of a tool's text read at most (default TOOL_TOKENS; the model's own limit caps it). */
  toolTokens?: number;
  /** The model is closed after this long without a run (default MODEL_IDLE_MS; 0: never). */
  idleMs?: number;
  /** Timers, injected by tests: runs `f` after `ms`, answers a cancel. */
  later?: (f: () => void, ms: number) => () => void;
  /** The clock for retries (default Date.now). */
  now?: () => number;
};

type Keyed = { key: string; text: string };

export class ToolVectors {
  private state: 'idle' | 'loading' | 'ready' | 'off' = 'idle';
  private warning: string | undefined;
  private embedder: Embedder | undefined;
  private entries: readonly ToolEntry[] = [];
  /** Bumped on every toolbox change: a slice in flight for an older toolbox does not decide readiness. */
  private generation = 0;
  private readonly vectors = new Map<string, Float32Array>();
  /** The latest queries' vectors, least recently used first (embedQuery). */
  private readonly queries = new Map<string, Float32Array>();
  /** The cache key per tool object (a rebuilt toolbox keeps the objects of unchanged tools). */
  private readonly keys = new WeakMap<object, string>();
  private activation: Promise<void> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private embedded = 0;
  /** What the model said of itself when it loaded (kept while it is closed for idleness). */
  private about: { model: string; dim: number; lexicalShare: number | undefined } | undefined;
  /** The model was closed for idleness (vectors kept); the next run loads it again. */
  private unloaded = false;
  private reloading: Promise<Embedder | undefined> | undefined;
  /** A failed start again is tried again after this time, with this wait before the next. */
  private retryAt = 0;
  private retryWait = RELOAD_RETRY_MS;
  private cancelIdle: (() => void) | undefined;
  /** Model runs under way (a query, a slice): the model is not closed under them. */
  private inUse = 0;
  /** Tools the current model process has embedded (RENEW_AFTER_TOOLS). */
  private embeddedByProcess = 0;
  private cancelRenew: (() => void) | undefined;
  /** A process replaced by a fresh one, closed once the runs on it have ended. */
  private retired: Embedder | undefined;
  /** Runs under way on each process (a replaced one goes when its own are done). */
  private readonly runsOn = new Map<Embedder, number>();
  private renewal: Promise<void> | undefined;

  constructor(private readonly opts: ToolVectorsOptions) {}

  /** Semantic search's state, for the control API and the window. */
  status(): EmbeddingStatus {
    const total = this.entries.length;
    const state = this.state === 'ready' && this.embedded < total ? 'loading' : this.state;
    return { state, embedded: this.state === 'off' ? 0 : this.embedded, total, warning: this.warning };
  }

  /** The model is loaded and every tool of the current toolbox has a vector. */
  ready(): boolean {
    return this.status().state === 'ready';
  }

  /** Search was used: loads the model once, then embeds the toolbox in the background. Never throws. */
  activate(): void {
    if (this.activation || this.stopped || this.opts.enabled?.() === false) return;
    this.state = 'loading';
    if (this.opts.entries) this.entries = this.opts.entries();
    this.activation = this.loadModel();
  }

  /**
   * The toolbox changed: its tools are embedded (those not cached) once the model is active. Tools not
   * keyed yet count as not embedded until the background pass has keyed them, in slices.
   */
  update(entries: readonly ToolEntry[]): void {
    this.entries = entries;
    this.generation++;
    // Before search is used nothing is computed: a toolbox change then costs nothing here.
    if ((!this.embedder && !this.unloaded) || this.state === 'off') return;
    this.embedded = this.countEmbedded();
    this.kick();
  }

  /** The tool's vector, or undefined (not embedded or not keyed yet, or the model is off). */
  vector(entry: ToolEntry): Float32Array | undefined {
    if (this.state === 'off') return undefined;
    const key = this.keyIfKnown(entry);
    return key === undefined ? undefined : this.vectors.get(key);
  }

  /** BM25F's share when fused with the loaded model, when its manifest names one. */
  lexicalShare(): number | undefined {
    return this.state === 'off' ? undefined : this.about?.lexicalShare;
  }

  /** The loaded model's name (also while it is closed for idleness); undefined before it loads or once it failed. */
  model(): string | undefined {
    return this.state === 'off' ? undefined : this.about?.model;
  }

  /**
   * A query's vector, or undefined when the model is not loaded or failed: answer lexically then.
   * The latest queries' vectors are kept (an agent repeats and refines queries, and the pair learned
   * after a call needs the vector of the search before it). The model reads the query without its
   * quoted spans (queryArguments.ts).
   */
  async embedQuery(text: string): Promise<Float32Array | undefined> {
    if ((!this.embedder && !this.unloaded) || this.state === 'off') return undefined;
    const hit = this.queries.get(text);
    if (hit) {
      this.queries.delete(text);
      this.queries.set(text, hit);
      return hit;
    }
    // Counted from before it waits for the model: nothing closes the model it is about to be given.
    this.inUse++;
    let e: Embedder | undefined;
    try {
      e = await this.loadedSoon();
      if (!e) return undefined;
      this.begin(e);
      // Cut first, as every search does: finding quoted spans in a megabyte of quotes takes seconds.
      const v = (await e.embed([(e.queryPrefix ?? '') + withoutQuotedSpans(capQuery(text).query)]))[0];
      if (v && this.embedder === e) {
        this.queries.set(text, v);
        // Map keeps insertion order: the first key is the least recently used.
        if (this.queries.size > QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value!);
      }
      return v;
    } catch (err) {
      // A process closed under it (stopping, or started again) is not the model's failure: answered by words.
      if (this.stopped || this.embedder !== e) return undefined;
      this.fail(`The search model failed while reading a query (${errorMessage(err)}). Search stays lexical until Working Set restarts.`);
      return undefined;
    } finally {
      this.inUse--;
      if (e) this.end(e);
      this.afterRun();
      this.armIdle();
    }
  }

  /** The loaded model, loaded again first when it was closed for idleness; undefined once it failed. */
  private async loaded(): Promise<Embedder | undefined> {
    if (this.embedder) return this.embedder;
    if (!this.unloaded || this.stopped || this.state === 'off') return undefined;
    if (this.now() < this.retryAt) return undefined;
    this.reloading ??= (async () => {
      // A start again that fails (a busy machine, no memory for a process) is not the model's fault:
      // the vectors stay, queries are answered by words, and a later query tries again.
      const got = await this.open('could not be started again', (message) => {
        this.retryAt = this.now() + this.retryWait;
        this.opts.log.warn(`${message} Trying again in ${Math.round(this.retryWait / 1000)} s.`);
        // Tools that came meanwhile wait for vectors, and search waits for them (lexical until then),
        // so the build tries again by itself: no query would.
        this.later(() => {
          if (!this.stopped && this.state !== 'off') this.kick();
        }, this.retryWait);
        this.retryWait = Math.min(this.retryWait * 2, MODEL_IDLE_MS);
      });
      this.reloading = undefined;
      if (!got) return undefined;
      if (this.stopped || this.state === 'off') return void (await got.close().catch(() => {}));
      this.retryWait = RELOAD_RETRY_MS;
      this.unloaded = false;
      // Another model than the vectors were made with (the config or the installed files changed
      // meanwhile): its vectors are made again; the old ones are never saved under its name.
      const before = this.about;
      const changed = !!before && (before.model !== got.model || before.dim !== got.dim);
      if (changed) {
        this.vectors.clear();
        this.queries.clear();
        this.embedded = 0;
      }
      this.use(got);
      if (changed) this.kick();
      return got;
    })();
    return this.reloading;
  }

  /** loaded(), waiting at most RELOAD_WAIT_MS for a start again (a query is answered by words past it). */
  private loadedSoon(): Promise<Embedder | undefined> {
    if (this.embedder || !this.unloaded) return this.loaded();
    return new Promise((resolve) => {
      const cancel = this.later(() => resolve(undefined), RELOAD_WAIT_MS);
      void this.loaded().then((e) => {
        cancel();
        resolve(e);
      });
    });
  }

  /** The clock for retries (the injected one in tests). */
  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** Runs `f` after `ms` (the injected timers in tests); answers a cancel. Never keeps the process alive. */
  private later(f: () => void, ms: number): () => void {
    if (this.opts.later) return this.opts.later(f, ms);
    const t = setTimeout(f, ms);
    t.unref();
    return () => clearTimeout(t);
  }

  /** (Re)starts the idle countdown; when it ends with no run under way, the model is closed. */
  private armIdle(): void {
    const ms = this.opts.idleMs ?? MODEL_IDLE_MS;
    this.cancelIdle?.();
    this.cancelIdle = undefined;
    if (ms <= 0 || this.stopped || !this.embedder) return;
    this.cancelIdle = this.later(() => {
      this.cancelIdle = undefined;
      if (this.inUse > 0 || this.running) return this.armIdle();
      const e = this.embedder;
      if (!e || this.state === 'off') return;
      this.embedder = undefined;
      this.unloaded = true;
      void e.close().catch(() => {});
    }, ms);
  }

  /** Resolves when the model is loaded (or failed) and no tool is waiting for a vector (tests, bench). */
  async idle(): Promise<void> {
    await this.activation;
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelIdle?.();
    this.cancelIdle = undefined;
    this.cancelRenew?.();
    this.cancelRenew = undefined;
    // Closed first: a run under way ends with it (the model runs in a process of its own), so stopping
    // never waits for a slice of the toolbox on a machine too busy to give the model a core.
    const e = this.embedder;
    this.embedder = undefined;
    this.closeRetired();
    await e?.close().catch(() => {});
    await this.idle().catch(() => {});
    await this.reloading?.catch(() => {});
    await this.renewal?.catch(() => {});
  }

  /** The tool's text as the model reads it, and its key in the vector cache. */
  private keyed(entry: ToolEntry): Keyed {
    const text = (this.opts.text ?? toolText)(entry);
    // The token limit is part of the key only when it is not the model's 128 (keys of earlier versions stay valid).
    const limit = this.opts.toolTokens ?? TOOL_TOKENS;
    const key = createHash('sha256')
      .update(`${TEXT_VERSION}${limit === 128 ? '' : `:${limit}`}\n${text}`)
      .digest('hex')
      .slice(0, 32);
    return { key, text };
  }

  /**
   * The tool's key. toolText reads the tool object only, so the key is kept with the object (a custom
   * text is computed each time); the text is not: it is needed only while the tool waits for its vector,
   * and 5,000 tools' texts, built by concatenation, held ~28 MB of the heap (bench/scale snapshots).
   */
  private keyOf(entry: ToolEntry): string {
    let key = this.opts.text ? undefined : this.keys.get(entry.tool);
    if (key === undefined) {
      key = this.keyed(entry).key;
      if (!this.opts.text) this.keys.set(entry.tool, key);
    }
    return key;
  }

  /** The tool's key when it costs no hashing now (kept with the tool object, or a custom text: tests). */
  private keyIfKnown(entry: ToolEntry): string | undefined {
    return this.opts.text ? this.keyed(entry).key : this.keys.get(entry.tool);
  }

  /** Keys every tool of `entries`, a slice of the event loop at a time; answers false if the toolbox changed meanwhile. */
  private async keyAll(entries: readonly ToolEntry[], gen: number): Promise<boolean> {
    if (this.opts.text) return true;
    const slicer = new TimeSlicer({ sliceMs: KEY_SLICE_MS, checkEvery: 16 });
    for (const e of entries) {
      if (!this.keys.has(e.tool)) this.keyOf(e);
      if ((await slicer.maybeYield()) && (gen !== this.generation || this.stopped)) return false;
    }
    return true;
  }

  private cachePath(): string | undefined {
    return this.opts.stateDir === undefined ? undefined : join(this.opts.stateDir, VECTOR_CACHE_FILE);
  }

  /**
   * Loads the model; undefined when it failed or stop() came first. A failure turns semantic search off
   * (said once), unless `onFailure` takes it.
   */
  private async open(failed: string, onFailure: (message: string) => void = (m) => this.fail(m)): Promise<Embedder | undefined> {
    let got: Embedder | EmbedderFailure;
    try {
      got = await (this.opts.load ?? (() => loadEmbedder({ log: this.opts.log })))();
    } catch (err) {
      got = { error: { code: 'runtime_unavailable', message: `The search model ${failed}: ${errorMessage(err)}. Search stays lexical.` } };
    }
    if (isEmbedderFailure(got)) return void onFailure(got.error.message);
    if (this.stopped) return void (await got.close().catch(() => {}));
    return got;
  }

  /** `e` answers from now on; its idle countdown starts. */
  private use(e: Embedder): void {
    this.embedder = e;
    this.embeddedByProcess = 0;
    this.about = { model: e.model, dim: e.dim, lexicalShare: e.lexicalShare };
    this.armIdle();
  }

  private async loadModel(): Promise<void> {
    const got = await this.open('could not be loaded');
    if (!got) return;
    const path = this.cachePath();
    if (path) {
      const cached = await readVectorCache(path, this.opts.log).catch(() => undefined);
      if (cached && cached.model === got.model && cached.dim === got.dim) for (const [k, v] of cached.vectors) this.vectors.set(k, v);
    }
    this.state = 'ready';
    this.use(got);
    this.update(this.entries);
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.fill().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped && this.state !== 'off') {
        this.again = false;
        this.kick();
      } else this.afterRun();
    });
  }

  /** Embeds every current tool without a vector, a slice at a time, then writes the cache. */
  private async fill(): Promise<void> {
    let fresh = 0;
    let sinceCheckpoint = 0;
    const gen = this.generation;
    if (!(await this.keyAll(this.entries, gen))) return void (this.again = !this.stopped);
    // A toolbox that arrived as the last slice ended is keyed by the next pass, in slices, not below at once.
    if (gen !== this.generation) return void (this.again = !this.stopped);
    this.embedded = this.countEmbedded();
    // One entry per missing key; texts are made a slice at a time (all of them at once are tens of MB).
    const unique = [...new Map(this.entries.map((e) => [this.keyOf(e), e] as const)).entries()]
      .filter(([k]) => !this.vectors.has(k))
      .map(([, e]) => e);
    for (let i = 0; i < unique.length; i += EMBED_SLICE_TOOLS) {
      const e = await this.loaded();
      if (!e || this.stopped || this.state === 'off') return;
      // A newer toolbox: what is done stays; the next pass picks up what the new one lacks.
      if (gen !== this.generation) return void (this.again = true);
      const slice = unique.slice(i, i + EMBED_SLICE_TOOLS).map((entry) => this.keyed(entry));
      let out: Float32Array[];
      try {
        this.inUse++;
        this.begin(e);
        try {
          out = await e.embed(
            slice.map((k) => k.text),
            this.opts.toolTokens ?? TOOL_TOKENS,
          );
        } finally {
          this.inUse--;
          this.end(e);
        }
      } catch (err) {
        if (this.stopped) return;
        // A replaced process that failed its last slice: the slice is done again on the fresh one.
        if (this.embedder !== e && this.embedder) return void (this.again = true);
        return this.fail(
          `The search model failed while reading tools (${errorMessage(err)}). Search stays lexical until Working Set restarts.`,
        );
      }
      slice.forEach((k, j) => this.vectors.set(k.key, out[j]!));
      fresh += slice.length;
      if (this.embedder === e) this.embeddedByProcess += slice.length;
      sinceCheckpoint += slice.length;
      if (gen === this.generation) this.embedded = this.countEmbedded();
      if (sinceCheckpoint >= CACHE_CHECKPOINT_TOOLS) {
        sinceCheckpoint = 0;
        await this.writeCache(false);
      }
    }
    if (gen !== this.generation) return void (this.again = true);
    this.embedded = this.countEmbedded();
    // Vectors of tools that left are dropped (memory and file stay the size of the toolbox).
    const live = new Set(this.entries.map((e) => this.keyOf(e)));
    let pruned = false;
    for (const k of this.vectors.keys()) {
      if (!live.has(k)) {
        this.vectors.delete(k);
        pruned = true;
      }
    }
    if (fresh > 0 || pruned) await this.writeCache(true);
    this.armIdle();
  }

  /** When a query or a build ends with no other run under way: a process due to be replaced is, after RENEW_QUIET_MS. */
  private afterRun(): void {
    if (this.inUse > 0 || this.running) return;
    this.cancelRenew?.();
    this.cancelRenew = undefined;
    if (this.embeddedByProcess < RENEW_AFTER_TOOLS || this.stopped) return;
    this.cancelRenew = this.later(() => {
      this.cancelRenew = undefined;
      if (this.inUse === 0 && !this.running) this.renewIfDue();
    }, RENEW_QUIET_MS);
  }

  private begin(e: Embedder): void {
    this.runsOn.set(e, (this.runsOn.get(e) ?? 0) + 1);
  }

  private end(e: Embedder): void {
    const left = (this.runsOn.get(e) ?? 1) - 1;
    if (left > 0) return void this.runsOn.set(e, left);
    this.runsOn.delete(e);
    if (e === this.retired) this.closeRetired();
  }

  private closeRetired(): void {
    const old = this.retired;
    this.retired = undefined;
    void old?.close().catch(() => {});
  }

  /**
   * A process that has embedded RENEW_AFTER_TOOLS tools is replaced by a fresh one with the same model:
   * the fresh one is started first and the old one answers meanwhile; if it cannot start, the old one
   * goes on (and is not tried again before as many tools more).
   */
  private renewIfDue(): void {
    const old = this.embedder;
    if (!old || this.embeddedByProcess < RENEW_AFTER_TOOLS || this.renewal || this.stopped || this.state === 'off') return;
    const kept = (message: string) => this.opts.log.info(`${message} The process that built the vectors goes on.`);
    this.renewal = this.open('could not be started again', kept).then((fresh) => {
      this.renewal = undefined;
      // Stopped, failed, closed for idleness, or other files meanwhile (a model chosen at the first load
      // stays until a restart): the old process goes on, and is not replaced again for as many tools more.
      if (!fresh || this.embedder !== old || this.state === 'off' || fresh.model !== old.model || fresh.dim !== old.dim) {
        if (this.embedder === old) this.embeddedByProcess = 0;
        return void fresh?.close().catch(() => {});
      }
      this.use(fresh);
      this.retired = old;
      if (!this.runsOn.has(old)) this.closeRetired();
    });
  }

  /** Tools of the toolbox with a vector; a tool not keyed yet has none as far as this count knows. */
  private countEmbedded(): number {
    return this.entries.reduce((n, e) => {
      const key = this.keyIfKnown(e);
      return n + (key !== undefined && this.vectors.has(key) ? 1 : 0);
    }, 0);
  }

  private async writeCache(final: boolean): Promise<void> {
    const path = this.cachePath();
    const e = this.about;
    if (!path || !e) return;
    try {
      await writeVectorCache(path, e.model, e.dim, this.vectors);
    } catch (err) {
      // Not fatal: the vectors are in memory; the next start computes them again.
      if (final)
        this.opts.log.warn(
          `The tool vectors could not be saved to ${path} (${errorMessage(err)}); they will be computed again at the next start.`,
        );
    }
  }

  /** Semantic search off for this run: one warning in the log, the status says why, vectors freed. */
  private fail(message: string): void {
    if (this.state === 'off') return;
    this.state = 'off';
    this.cancelIdle?.();
    this.cancelIdle = undefined;
    this.warning = message;
    this.opts.log.warn(message);
    this.vectors.clear();
    this.queries.clear();
    this.embedded = 0;
    const e = this.embedder;
    this.embedder = undefined;
    this.closeRetired();
    void e?.close().catch(() => {});
  }
}

/** A query's vector with its model's name (for the query memory); undefined while no model is loaded. */
export async function vectorOfQuery(vectors: ToolVectors, query: string): Promise<{ v: Float32Array; model: string } | undefined> {
  const model = vectors.model();
  const v = model === undefined ? undefined : await vectors.embedQuery(query);
  return v && model !== undefined && vectors.model() === model ? { v, model } : undefined;
}
