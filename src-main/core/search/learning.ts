// Learning from use: when an agent calls a tool shortly after a search_tools query, the query's words
// become "learned words" of that tool, a ranking field (see SearchIndex.search's `boost`). The product's
// own idea, hand-written: no library learns a vocabulary from search→call pairs.
//
// Pairs are kept per agent in `learned.json` in the state folder, bounded (oldest dropped first).
// A word's weight for a tool grows with how often and how recently it led there; the agent's own pairs
// count more than other agents'; a hit the agent was shown first and ignored (it called another tool)
// counts against that hit.
import { join } from 'node:path';
import { readJsonSafe, writeJsonAtomic } from '../store/atomicJson.js';
import { silentLogger, type Logger } from '../log.js';
import { isStopWord, splitWords, stem } from './text.js';
import { capQuery } from './limits.js';

/** A call this long after a search still counts as its outcome; later, the agent has moved on. */
export const LEARN_WINDOW_MS = 10 * 60_000;
/** At most this many calls after one search are taken as its outcome (a query may name two tasks). */
const CALLS_PER_SEARCH = 3;
/** Pairs kept per agent: old ones go first. ~120 bytes each on disk. */
export const MAX_PAIRS_PER_AGENT = 2000;
/** Agents whose pairs are kept (more agents than this: the least recently active are dropped). */
const MAX_AGENTS = 200;
/** Learned words of one query (the rest of a long query says little about the tool). */
const MAX_WORDS_PER_PAIR = 12;
/** A pair's weight halves every this many days: vocabulary drifts as tools and habits change. */
const HALF_LIFE_DAYS = 60;
/** Other agents' pairs count this much of the agent's own. */
export const SHARED_WEIGHT = 0.5;
/** An ignored first hit counts this much against the query's words for it. */
const IGNORED_WEIGHT = -0.5;
/**
 * How far a learned word is trusted, from its evidence n (one fresh own pair ≈ 1): 1 − exp(−(n/2.5)³),
 * so one pair 6 %, two 40 %, three 82 %. A word that led to a tool once may be the task's argument
 * ("the retro", "Ana", "PR 42") rather than the tool's vocabulary; a word that led there again and
 * again is vocabulary. Chosen before the MetaTool set was measured, on the gold, second and learning
 * sets with `--split 0.5 --seed 1-8`: the steepest curve with no loss on any of them where train and
 * test share no tools (the old linear curve, 1 − exp(−n), lost 2.2 points on the learning set there).
 */
const CONFIDENCE_SCALE = 2.5;
const CONFIDENCE_POWER = 3;
/** The same request again: one fresh own pair makes its tool ~63 % remembered (see recall). */
const RECALL_SCALE = 1;
/** Writes are batched: at most one every this many ms. */
const SAVE_DELAY_MS = 5_000;

/**
 * One observed outcome: query `q` led to tool `t` (or, with `neg`, its first hit `t` was ignored).
 * `o` is the query as observed when words were since forgotten out of `q` (forget(tool, word)): the
 * transcript de-duplication compares against it, so re-reading a transcript does not bring them back.
 */
export type LearnedPair = { q: string; t: string; ts: number; neg?: true; o?: string };
type FileShape = { version: 1; agents: Record<string, LearnedPair[]> };
type LastSearch = { query: string; shown: string[]; ts: number; calls: number };
/** Per request (its content words, sorted): tool name → how far it is remembered (0–1). */
type Recalled = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** Per stemmed word: tool name → weight (> 0). */
export type LearnedTerms = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** The content words of a query, stemmed as the index stores them (each once). */
export function learnedWordsOf(query: string): string[] {
  return [...surfaceWordsOf(query).keys()];
}

/** A request's identity for recall: its content words, order, case and stop words aside. */
export function requestKey(query: string): string {
  return [...surfaceWordsOf(query).keys()].sort().join(' ');
}

/** Stem → the word as the query wrote it, for content words of a query. */
function surfaceWordsOf(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of splitWords(capQuery(query).query, false)) {
    if (isStopWord(w) || /^\d+$/.test(w) || w.length > 24) continue;
    if (!out.has(stem(w))) out.set(stem(w), w);
    if (out.size >= MAX_WORDS_PER_PAIR) break;
  }
  return out;
}

export class SearchLearning {
  private readonly pairs = new Map<string, LearnedPair[]>();
  private readonly last = new Map<string, LastSearch>();
  private version = 0;
  private readonly cache = new Map<string, { version: number; terms: LearnedTerms; recalled: Recalled }>();
  /** A readable form of each learned stem ("buy" for "bui"), for the window and `--explain`. */
  private readonly surface = new Map<string, string>();
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: {
      /** Where learned.json lives; undefined keeps pairs in memory only (eval, tests). */
      stateDir?: string;
      now: () => number;
      /** `search.learn` in the config: false records nothing and ranks without learned words. */
      enabled: () => boolean;
      log?: Logger;
    },
  ) {}

  get enabled(): boolean {
    return this.opts.enabled();
  }

  /** Bumped on every change: ranking caches key on it. */
  get revision(): number {
    return this.version;
  }

  async load(): Promise<void> {
    if (!this.opts.stateDir) return;
    const r = await readJsonSafe<FileShape>(this.file(), this.opts.log ?? silentLogger, (v): v is FileShape => typeof v === 'object' && v !== null && typeof (v as FileShape).agents === 'object' && (v as FileShape).agents !== null);
    if (r.kind !== 'ok') return;
    const agents = r.value.agents;
    for (const [agent, list] of Object.entries(agents)) {
      if (!Array.isArray(list)) continue;
      const ok = list.filter((p): p is LearnedPair => !!p && typeof p.q === 'string' && typeof p.t === 'string' && typeof p.ts === 'number');
      this.pairs.set(agent, ok.slice(-MAX_PAIRS_PER_AGENT));
    }
    this.version++;
  }

  /** Writes pending pairs now (on stop). */
  async flush(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.dirty && this.opts.stateDir) {
      this.dirty = false;
      const agents: Record<string, LearnedPair[]> = {};
      for (const [a, list] of this.pairs) agents[a] = list;
      const file = this.file();
      // One write at a time, in order; a flush on stop also waits for a write a timer started.
      const write = this.writing.then(() => writeJsonAtomic(file, { version: 1, agents } satisfies FileShape));
      this.writing = write.catch(() => {}); // a failed write is reported by its caller, not by the next one
      return write;
    }
    await this.writing;
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

  /** Feeds observed pairs directly (`mws eval --train`, transcripts). */
  train(agent: string, pairs: Array<{ query: string; tool: string; ts?: number }>): void {
    for (const p of pairs) this.add(agent, { q: capQuery(p.query).query, t: p.tool, ts: p.ts ?? this.opts.now() });
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
      if (this.pairs.get(agent)?.some((k) => (k.neg === true) === neg && k.t === p.tool && (k.o ?? k.q) === q && Math.abs(k.ts - p.ts) <= LEARN_WINDOW_MS)) continue;
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
    if (word !== undefined) return this.forgetWord(tool, word);
    // The pairs stay as tombstones, with no words and no request, but with the query as observed in
    // `o`: a transcript read after the forget (the usage cycle reads them minutes after the live call)
    // would otherwise bring the same search→call back as new.
    let n = 0;
    for (const list of this.pairs.values()) {
      list.forEach((p, i) => {
        if (p.t !== tool || isTombstone(p)) return;
        list[i] = { ...p, q: '', o: p.o ?? p.q };
        n++;
      });
    }
    if (n > 0) this.changed();
    return n;
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
    for (const list of this.pairs.values()) {
      for (const [i, p] of list.entries()) {
        if (p.t !== tool) continue;
        // What is left is the pair's learned words but these: a word past the first 12 of a long query,
        // which never counted, does not start counting because one before it went.
        const learned = surfaceWordsOf(p.q);
        const kept = [...learned].filter(([s]) => !stems.has(s));
        if (kept.length === learned.size) continue;
        list[i] = { ...p, q: kept.map(([, w]) => w).join(' '), o: p.o ?? p.q };
        n++;
      }
    }
    if (n > 0) this.changed();
    return n;
  }

  /** The words a tool was learned for, heaviest first, as seen by `agent` (or by all agents alike). */
  wordsFor(tool: string, agent?: string): Array<{ word: string; weight: number }> {
    const out: Array<{ word: string; weight: number }> = [];
    for (const [word, tools] of this.terms(agent)) {
      const w = tools.get(tool);
      if (w) out.push({ word: this.surface.get(word) ?? word, weight: Math.round(w * 100) / 100 });
    }
    return out.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1));
  }

  /** Learned words as `agent` sees them: its own pairs at full weight, others' at SHARED_WEIGHT. */
  terms(agent?: string): LearnedTerms {
    return this.derived(agent).terms;
  }

  /**
   * The tools the same request (the same content words) led `agent` to before, with how far each is
   * remembered: asked again, a request finds what answered it, even where its words alone are too
   * weak a clue to teach the tool anything (one pair of a word is trusted 6 %, see CONFIDENCE_SCALE).
   */
  recall(query: string, agent?: string): ReadonlyMap<string, number> | undefined {
    return this.derived(agent).recalled.get(requestKey(capQuery(query).query));
  }

  private derived(agent: string | undefined): { terms: LearnedTerms; recalled: Recalled } {
    const key = agent ?? '\0all';
    const hit = this.cache.get(key);
    if (hit && hit.version === this.version) return hit;
    const now = this.opts.now();
    const sums = new Map<string, Map<string, number>>();
    const requests = new Map<string, Map<string, number>>();
    const put = (into: Map<string, Map<string, number>>, k: string, tool: string, w: number) => {
      let tools = into.get(k);
      if (!tools) into.set(k, (tools = new Map()));
      tools.set(tool, (tools.get(tool) ?? 0) + w);
    };
    for (const [owner, list] of this.pairs) {
      const share = agent === undefined || owner === agent ? 1 : SHARED_WEIGHT;
      for (const p of list) {
        const ageDays = Math.max(0, now - p.ts) / 86_400_000;
        const w = share * (p.neg ? IGNORED_WEIGHT : 1) * 0.5 ** (ageDays / HALF_LIFE_DAYS);
        const { words, key: request } = wordsOfPair(p);
        for (const [word, shown] of words) {
          if (this.surface.size < 50_000 && !this.surface.has(word)) this.surface.set(word, shown);
          put(sums, word, p.t, w);
        }
        // A pair with a word forgotten out of it (`o`) is no longer the request anyone asked: its other
        // words alone must not become a remembered request.
        if (words.size && p.o === undefined) put(requests, request, p.t, w);
      }
    }
    // A word that led to many tools says little about any one: each tool gets its share of the word's
    // evidence (how often it led there over how often it led anywhere), times a confidence that grows
    // with the evidence itself.
    trust(sums, (w) => 1 - Math.exp(-((w / CONFIDENCE_SCALE) ** CONFIDENCE_POWER)));
    trust(requests, (w) => 1 - Math.exp(-w / RECALL_SCALE));
    // One entry per agent asked for, bounded by the number of agents.
    if (this.cache.size > MAX_AGENTS) this.cache.clear();
    const entry = { version: this.version, terms: sums, recalled: requests };
    this.cache.set(key, entry);
    return entry;
  }

  /** The tools something was learned for, as `agent` sees them: by a word, or by a remembered request. */
  learnedTools(agent?: string): string[] {
    const d = this.derived(agent);
    const out = new Set<string>();
    for (const m of d.terms.values()) for (const t of m.keys()) out.add(t);
    for (const m of d.recalled.values()) for (const t of m.keys()) out.add(t);
    return [...out].sort();
  }

  /** How many pairs are kept, per agent. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.pairs].map(([a, l]) => [a, l.length]));
  }

  private add(agent: string, pair: LearnedPair): void {
    let list = this.pairs.get(agent);
    if (!list) {
      if (this.pairs.size >= MAX_AGENTS) {
        // Drop the agent whose newest pair is oldest.
        let oldest: string | undefined;
        let oldestTs = Infinity;
        for (const [a, l] of this.pairs) if ((l[l.length - 1]?.ts ?? 0) < oldestTs) [oldest, oldestTs] = [a, l[l.length - 1]?.ts ?? 0];
        if (oldest !== undefined) this.pairs.delete(oldest);
      }
      this.pairs.set(agent, (list = []));
    }
    list.push(pair);
    if (list.length > MAX_PAIRS_PER_AGENT) list.splice(0, list.length - MAX_PAIRS_PER_AGENT);
    this.changed();
  }

  private changed(): void {
    this.version++;
    this.dirty = true;
    if (!this.opts.stateDir || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush().catch((err: unknown) => this.opts.log?.warn(`learned.json could not be written: ${(err as Error).message}`));
    }, SAVE_DELAY_MS);
    this.saveTimer.unref?.();
  }

  private file(): string {
    return join(this.opts.stateDir!, 'learned.json');
  }
}

/**
 * A pair's content words, read once per pair: derived() runs over every kept pair after each change
 * (up to 2,000 per agent), and splitting and stemming each query again was most of its cost (~360 ms
 * over 20,000 pairs; see test/unit/searchLearning.test.ts). A pair whose query changes is a new object.
 */
const pairWords = new WeakMap<LearnedPair, { words: Map<string, string>; key: string }>();
function wordsOfPair(p: LearnedPair): { words: Map<string, string>; key: string } {
  let w = pairWords.get(p);
  if (!w) {
    const words = surfaceWordsOf(p.q);
    pairWords.set(p, (w = { words, key: [...words.keys()].sort().join(' ') }));
  }
  return w;
}

/** A forgotten tool's pair: kept only so the same observation is not learned again (see forget). */
function isTombstone(p: LearnedPair): boolean {
  return p.q === '' && p.o !== undefined;
}

/**
 * Turns summed evidence per key (a word, or a request) and tool into trust in (0, 1]: the tool's share
 * of the key's evidence times `confidence(evidence)`. Keys and tools left with no positive trust go.
 */
function trust(sums: Map<string, Map<string, number>>, confidence: (evidence: number) => number): void {
  for (const [key, tools] of sums) {
    // The share is of positive evidence: a first hit passed over counts against that hit only, not
    // against the tool the agent chose instead (its negative pair names the same query).
    let total = 0;
    for (const w of tools.values()) total += Math.max(0, w);
    for (const [t, w] of tools) {
      const v = w <= 0 ? 0 : (w / total) * confidence(w);
      if (v <= 0.01) tools.delete(t);
      else tools.set(t, v);
    }
    if (tools.size === 0) sums.delete(key);
  }
}
