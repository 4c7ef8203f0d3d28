// Learning from use: when an agent calls a tool shortly after a search_tools query, the query's words
// become "learned words" of that tool, a ranking field (see SearchIndex.search's `boost`). The product's
// own idea, hand-written: no library learns a vocabulary from search→call pairs.
//
// Pairs are kept per agent in `learned.json` in the state folder, bounded (oldest dropped first).
// A word's weight for a tool grows with how often and how recently it led there; the agent's own pairs
// count more than other agents'; a hit the agent was shown first and ignored (it called another tool)
// counts against that hit.
import { join } from 'node:path';
import { LEARNED_FILE, readLearned, writeLearned } from './learnedFile.js';
import { silentLogger, type Logger } from '../log.js';
import { capQuery } from './limits.js';
import { learnedWordsOf, requestKey, surfaceWordsOf, type LearnedEvidence, type LearnedPair } from './learnedEvidence.js';
import { LazyEvidence } from './lazyEvidence.js';
import { evidenceScope, type EvidenceScope, type LearningPolicy } from './learningScope.js';
import { SerialQueue } from '../serial.js';
import { QueryMemory, type LikeEarlier, type QueryMemoryTuning } from './queryMemory.js';
import { isLearnedPair as isPair, type LearningEvent, type LearningFeed } from './learningFeed.js';

/** A query's sentence vector and the model that made it (query memory, queryMemory.ts). */
export type QueryVector = { v: Float32Array; model: string };

export { learnedWordsOf, type LearnedPair } from './learnedEvidence.js';

/** A call this long after a search still counts as its outcome; later, the agent has moved on. */
export const LEARN_WINDOW_MS = 10 * 60_000;
/** At most this many calls after one search are taken as its outcome (a query may name two tasks). */
const CALLS_PER_SEARCH = 3;
/** Pairs kept per agent: old ones go first. ~120 bytes each on disk. */
export const MAX_PAIRS_PER_AGENT = 2000;
/** Agents whose pairs are kept (more agents than this: the least recently active are dropped). */
const MAX_AGENTS = 200;
/** Where the pairs of a state folder are kept (a fleet keeps them in its learning feed). */
export { LEARNED_FILE };
/** Feed events read per query. */
const FEED_PAGE = 1000;
/** Writes are batched: at most one every this many ms. */
const SAVE_DELAY_MS = 5_000;

type LastSearch = { query: string; shown: string[]; ts: number; calls: number };
/** Learned words as one agent sees them: per stemmed word, tool name → trust (0–1]. */
export type LearnedTerms = { get(word: string): ReadonlyMap<string, number> | undefined };

export class SearchLearning {
  private readonly pairs = new Map<string, LearnedPair[]>();
  private readonly last = new Map<string, LastSearch>();
  private version = 0;
  /**
   * What the pairs say, per word and per request, kept up to date as pairs come and go. Built from the
   * loaded pairs in slices after start-up (warmInSlices), or at its first use if that comes first
   * (a long history takes a noticeable part of a second to build).
   */
  private readonly evidence: LazyEvidence;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private readonly writing = new SerialQueue();

  constructor(
    private readonly opts: {
      /** Where learned.json lives; undefined keeps pairs in memory only (eval, tests). */
      stateDir?: string;
      now: () => number;
      /** `search.learn` in the config: false records nothing and ranks without learned words. */
      enabled: () => boolean;
      /**
       * Which agents learn from which (learningScope.ts), read at each use so config edits apply.
       * None: every agent sees every agent's pairs (eval, tests).
       */
      policy?: () => LearningPolicy;
      log?: Logger;
      /**
       * A query's vector, for the query memory (queryMemory.ts): a learned pair keeps its query's
       * vector with the tool. Undefined (or answering undefined: the model is not loaded) keeps words only.
       */
      vectorOf?: (query: string) => QueryVector | undefined | Promise<QueryVector | undefined>;
      /** The query memory's rule, overridden only to measure it (bench/searchLearning.ts). */
      memoryTuning?: QueryMemoryTuning;
      /** A fleet's shared feed (statestore): pairs and forgets go through it instead of learned.json. */
      feed?: LearningFeed;
    },
  ) {
    this.evidence = new LazyEvidence(opts.now, () => this.pairs);
    this.memory = new QueryMemory({
      ...(opts.stateDir !== undefined ? { stateDir: opts.stateDir } : {}),
      now: opts.now,
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.memoryTuning ? { tuning: opts.memoryTuning } : {}),
    });
  }

  /** The agents' past requests as vectors, kept beside the pairs (same scope, same forgetting). */
  readonly memory: QueryMemory;

  /** Per tool, the nearest earlier request that led `agent` there (by meaning), as its scope lets it see. */
  earlierRequests(qv: QueryVector, query: string, agent?: string): Map<string, LikeEarlier> | undefined {
    if (!this.enabled) return undefined;
    return this.memory.nearestPerTool(qv.v, capQuery(query).query, agent, this.scopeOf(agent), qv.model);
  }

  get enabled(): boolean {
    return this.opts.enabled();
  }

  /**
   * Changes on every change to the pairs, and each hour (weights decay with time): ranking caches key
   * on it.
   */
  get revision(): string {
    const p = this.opts.policy?.();
    const scope = p ? `:${p.key}` : '';
    return `${this.version}:${Math.floor(this.opts.now() / 3_600_000)}${scope}`;
  }

  /** Whose pairs `agent`'s ranking may use (learningScope.ts); undefined agent: everyone's. */
  scopeOf(agent: string | undefined): EvidenceScope {
    const p = this.opts.policy?.();
    return p ? evidenceScope(agent, p) : { everyone: true, key: '*' };
  }

  async load(): Promise<void> {
    if (this.opts.stateDir) await this.memory.load();
    // A fleet's pairs are the feed's, read from its start; learned.json is one process's.
    if (this.opts.feed)
      return this.pull().catch((err: unknown) =>
        // Ranking goes on with what this replica learns; the rest comes with the next notice or resync.
        (this.opts.log ?? silentLogger).warn(`could not read what the fleet's searches learned: ${(err as Error).message}`),
      );
    if (!this.opts.stateDir) return;
    const lists = await readLearned(this.file(), MAX_AGENTS, this.opts.log ?? silentLogger);
    for (const [agent, ok] of lists) {
      const had = this.pairs.get(agent);
      for (const p of had ?? []) this.evidenceOf(agent, p, -1);
      const kept = ok.slice(-MAX_PAIRS_PER_AGENT);
      this.pairs.set(agent, kept);
      for (const p of kept) this.evidenceOf(agent, p, 1);
    }
    this.version++;
  }

  private feedCursor = 0;
  private pulling: Promise<void> | undefined;
  private pullAgain = false;

  /**
   * Applies what other replicas learned and forgot since the last pull (on their notice, and after a
   * lost connection). One pull at a time; one asked for meanwhile runs once it ends.
   */
  pull(): Promise<void> {
    const feed = this.opts.feed;
    if (!feed) return Promise.resolve();
    if (this.pulling) {
      this.pullAgain = true;
      return this.pulling;
    }
    const run = async (): Promise<void> => {
      do {
        this.pullAgain = false;
        for (;;) {
          const page = await feed.since(this.feedCursor, FEED_PAGE);
          for (const { id, event } of page) {
            this.feedCursor = id;
            this.applyEvent(event);
          }
          if (page.length < FEED_PAGE) break;
        }
      } while (this.pullAgain);
    };
    return (this.pulling = run().finally(() => (this.pulling = undefined)));
  }

  private applyEvent(e: LearningEvent): void {
    if ('forget' in e) this.forgetHere(e.forget, e.word);
    else if (isPair(e.pair)) this.add(e.agent, e.pair, undefined, false);
  }

  /** Writes pending pairs (and kept request vectors) now (on stop). */
  async flush(): Promise<void> {
    await Promise.all([this.flushPairs(), this.memory.flush()]);
  }

  private async flushPairs(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.dirty && this.opts.stateDir && !this.opts.feed) {
      this.dirty = false;
      const file = this.file();
      const pairs = new Map(this.pairs);
      // One write at a time, in order; a flush on stop also waits for a write a timer started.
      return this.writing.run(() => writeLearned(file, pairs));
    }
    await this.writing.idle();
  }

  /** A search_tools answer was given: `shown` are the tool names in it, best first. */
  searched(agent: string, query: string | undefined, shown: string[]): void {
    // A search that found nothing still counts: the tool called next is the vocabulary it lacked.
    if (!this.enabled || !query?.trim()) {
      this.last.delete(agent);
      return;
    }
    this.last.set(agent, { query: capQuery(query.trim()).query, shown: shown.slice(0, 10), ts: this.opts.now(), calls: 0 });
  }

  /** The agent called (or promoted) `tool`: if a search came shortly before, that search led here. */
  called(agent: string, tool: string): void {
    const s = this.last.get(agent);
    if (!s || !this.enabled) return;
    const now = this.opts.now();
    if (now - s.ts > LEARN_WINDOW_MS || s.calls >= CALLS_PER_SEARCH) {
      this.last.delete(agent);
      return;
    }
    s.calls++;
    this.add(agent, { q: s.query, t: tool, ts: now });
    // The first hit was shown and passed over for another tool: the query's words say less about it.
    if (s.calls === 1 && s.shown[0] && s.shown[0] !== tool) this.add(agent, { q: s.query, t: s.shown[0], ts: now, neg: true });
  }

  /** Feeds observed pairs directly (`mws eval --train`, transcripts); `vector`: the query's, when known. */
  train(agent: string, pairs: Array<{ query: string; tool: string; ts?: number; vector?: QueryVector | undefined }>): void {
    for (const p of pairs) this.add(agent, { q: capQuery(p.query).query, t: p.tool, ts: p.ts ?? this.opts.now() }, p.vector);
  }

  /**
   * Feeds pairs observed in a log read more than once (transcripts: a rebuilt usage file starts its
   * cursors over): a pair already kept (same query, tool and sign, within LEARN_WINDOW_MS) is not
   * counted again. `neg` marks an ignored first hit, as `called` records it. Answers how many were new.
   */
  observed(agent: string, pairs: Array<{ query: string; tool: string; ts: number; neg?: boolean }>): number {
    if (!this.enabled) return 0;
    let n = 0;
    for (const p of pairs) {
      const q = capQuery(p.query).query;
      const neg = p.neg === true;
      // The same pair within the learning window is one observation: a transcript also records every
      // search→call that went through this proxy, which the live hooks have already learned (the
      // ignored first hit included).
      if (
        this.pairs
          .get(agent)
          ?.some((k) => (k.neg === true) === neg && k.t === p.tool && (k.o ?? k.q) === q && Math.abs(k.ts - p.ts) <= LEARN_WINDOW_MS)
      )
        continue;
      this.add(agent, neg ? { q, t: p.tool, ts: p.ts, neg: true } : { q, t: p.tool, ts: p.ts });
      n++;
    }
    return n;
  }

  /**
   * Drops what was learned for a tool (all agents); answers how many pairs changed. With `word`, only
   * that word (every word of it, matched by stem as ranking matches) stops counting for the tool.
   *
   * A forgotten word is cut out of the stored query text of the tool's pairs rather than kept in a
   * separate forgotten list: the file keeps its shape (the loader reads it as before), ranking needs no
   * second look-up, and new searches that lead to the tool with that word teach it again, as they
   * would after forgetting the whole tool. The query as observed stays in `o` for de-duplication.
   */
  forget(tool: string, word?: string): number {
    this.opts.feed?.append(word === undefined ? { forget: tool } : { forget: tool, word });
    return this.forgetHere(tool, word);
  }

  private forgetHere(tool: string, word?: string): number {
    // The request vectors that led to the tool go too (with a word: those of requests holding it).
    const requests = this.memory.forget(tool, word);
    if (word !== undefined) return Math.max(this.forgetWord(tool, word), requests);
    // The pairs stay as tombstones, with no words and no request, but with the query as observed in
    // `o`: a transcript read after the forget (the usage cycle reads them minutes after the live call)
    // would otherwise bring the same search→call back as new.
    let n = 0;
    for (const [agent, list] of this.pairs) {
      list.forEach((p, i) => {
        if (p.t !== tool || isTombstone(p)) return;
        this.replace(agent, list, i, { ...p, q: '', o: p.o ?? p.q });
        n++;
      });
    }
    if (n > 0) this.changed();
    return Math.max(n, requests);
  }

  /** Whether any agent's pairs name `tool` (a tool gone from the toolbox may still have some). */
  knows(tool: string): boolean {
    for (const list of this.pairs.values()) if (list.some((p) => p.t === tool && !isTombstone(p))) return true;
    return false;
  }

  private forgetWord(tool: string, word: string): number {
    // Content words only, stemmed as learned words are: "the" forgets nothing, "buying" forgets "buy".
    const stems = new Set(learnedWordsOf(word));
    if (stems.size === 0) return 0;
    let n = 0;
    for (const [agent, list] of this.pairs) {
      for (const [i, p] of list.entries()) {
        if (p.t !== tool) continue;
        // What is left is the pair's learned words but these: a word past the first 12 of a long query,
        // which never counted, does not start counting because one before it went.
        const learned = surfaceWordsOf(p.q);
        const kept = [...learned].filter(([s]) => !stems.has(s));
        if (kept.length === learned.size) continue;
        this.replace(agent, list, i, { ...p, q: kept.map(([, w]) => w).join(' '), o: p.o ?? p.q });
        n++;
      }
    }
    if (n > 0) this.changed();
    return n;
  }

  /** The words a tool was learned for, heaviest first, as seen by `agent` (or by all agents alike). */
  wordsFor(tool: string, agent?: string): Array<{ word: string; weight: number }> {
    return this.built().wordsFor(tool, agent, this.scopeOf(agent));
  }

  /**
   * Learned words as `agent` sees them: its own pairs at full weight, those of the agents its scope
   * includes at SHARED_WEIGHT.
   */
  terms(agent?: string): LearnedTerms {
    const evidence = this.built();
    const scope = this.scopeOf(agent);
    return { get: (word) => evidence.word(word, agent, scope) };
  }

  /**
   * The tools the same request (the same content words) led `agent` to before, with how far each is
   * remembered: asked again, a request finds what answered it, even where its words alone are too
   * weak a clue to teach the tool anything (one pair of a word is trusted 6 %, see learnedEvidence.ts).
   */
  recall(query: string, agent?: string): ReadonlyMap<string, number> | undefined {
    return this.built().request(requestKey(capQuery(query).query), agent, this.scopeOf(agent));
  }

  /** The tools something was learned for, as `agent` sees them: by a word, or by a remembered request. */
  learnedTools(agent?: string): string[] {
    return this.built().tools(agent, this.scopeOf(agent));
  }

  /** How many pairs are kept, per agent. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.pairs].map(([a, l]) => [a, l.length]));
  }

  /** `share`: a pair learned here goes to the fleet's feed; one read from it does not go back. */
  private add(agent: string, pair: LearnedPair, vector?: QueryVector, share = true): void {
    if (share) this.opts.feed?.append({ agent, pair });
    let list = this.pairs.get(agent);
    if (!list) {
      if (this.pairs.size >= MAX_AGENTS) {
        // Drop the agent whose newest pair is oldest.
        let oldest: string | undefined;
        let oldestTs = Infinity;
        for (const [a, l] of this.pairs) if ((l[l.length - 1]?.ts ?? 0) < oldestTs) [oldest, oldestTs] = [a, l[l.length - 1]?.ts ?? 0];
        if (oldest !== undefined) {
          for (const p of this.pairs.get(oldest)!) this.evidenceOf(oldest, p, -1);
          this.pairs.delete(oldest);
        }
      }
      this.pairs.set(agent, (list = []));
    }
    list.push(pair);
    this.evidenceOf(agent, pair, 1);
    if (list.length > MAX_PAIRS_PER_AGENT)
      for (const old of list.splice(0, list.length - MAX_PAIRS_PER_AGENT)) this.evidenceOf(agent, old, -1);
    this.changed();
    // A pair read again from the feed (a restart) whose request this replica already remembers needs no new vector.
    if (!pair.neg && (share || !this.memory.has(agent, pair.q, pair.t))) this.rememberVector(agent, pair, vector);
  }

  /** Keeps the pair's query vector with its tool (given, or asked of the model: off the request path). */
  private rememberVector(agent: string, pair: LearnedPair, given?: QueryVector): void {
    const keep = (qv: QueryVector | undefined) => {
      // A pair forgotten (or dropped) while its vector was computed leaves no request behind.
      if (qv && this.enabled && this.pairs.get(agent)?.includes(pair)) this.memory.remember(agent, pair.q, pair.t, qv.v, qv.model, pair.ts);
    };
    if (given) return keep(given);
    const got = this.opts.vectorOf?.(pair.q);
    if (got instanceof Promise) got.then(keep, () => {});
    else keep(got);
  }

  /** Puts `pair` in place of the i-th pair of an agent's list (a forget), and its evidence with it. */
  private replace(agent: string, list: LearnedPair[], i: number, pair: LearnedPair): void {
    this.evidenceOf(agent, list[i]!, -1);
    list[i] = pair;
    this.evidenceOf(agent, pair, 1);
  }

  /** A pair was kept (1) or dropped (−1): the evidence follows, now or once its build is done. */
  private evidenceOf(agent: string, pair: LearnedPair, sign: 1 | -1): void {
    this.evidence.apply(agent, pair, sign);
  }

  /**
   * Builds the evidence off the request path after start-up, in slices of about `sliceMs` with the
   * event loop free between them (lazyEvidence.ts).
   */
  warmInSlices(sliceMs = 4, clock: () => number = () => performance.now()): Promise<void> {
    return this.evidence.warmInSlices(sliceMs, clock);
  }

  /** Stops a build in slices (on stop): what it built so far is dropped; a later use builds at once. */
  stopWarming(): void {
    this.evidence.stop();
  }

  private built(): LearnedEvidence {
    return this.evidence.get();
  }

  private changed(): void {
    this.version++;
    this.dirty = true;
    if (!this.opts.stateDir || this.opts.feed || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush().catch((err: unknown) => this.opts.log?.warn(`learned.json could not be written: ${(err as Error).message}`));
    }, SAVE_DELAY_MS);
    this.saveTimer.unref?.();
  }

  private file(): string {
    return join(this.opts.stateDir!, LEARNED_FILE);
  }
}

/** A forgotten tool's pair: kept only so the same observation is not learned again (see forget). */
function isTombstone(p: LearnedPair): boolean {
  return p.q === '' && p.o !== undefined;
}
