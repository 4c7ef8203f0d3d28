// What the kept search→call pairs say, kept up to date as pairs come and go: per word and per request
// (its content words), the weight each tool has from each agent's pairs. A search reads only the
// words it asks for: summing every kept pair again after each change would put the whole history on
// the path of the next search.
import { isStopWord, splitWords, stem } from './text.js';
import { capQuery } from './limits.js';
import type { EvidenceScope } from './learningScope.js';
import { LRUCache } from 'lru-cache';

/**
 * One observed outcome: query `q` led to tool `t` (or, with `neg`, its first hit `t` was ignored).
 * `o` is the query as observed when words were since forgotten out of `q` (forget(tool, word)), or the
 * whole tool was (then `q` is empty): the transcript de-duplication compares against it, so re-reading
 * a transcript does not bring them back.
 */
export type LearnedPair = { q: string; t: string; ts: number; neg?: true; o?: string };

/** Learned words of one query (the rest of a long query says little about the tool). */
const MAX_WORDS_PER_PAIR = 12;
/** A pair's weight halves every this many days: vocabulary drifts as tools and habits change. */
const HALF_LIFE_MS = 60 * 86_400_000;
/**
 * Weights are kept as of this instant and scaled to the time of reading: every pair halves at the same
 * rate, so one factor turns the kept sums into today's (2^(days since 2026-01-01 / 60): ~2^61 in 2036).
 */
const EPOCH = Date.UTC(2026, 0, 1);
/** Other agents' pairs (those its scope lets it see, learningScope.ts) count this much of the agent's own. */
export const SHARED_WEIGHT = 0.5;
/** An ignored first hit counts this much against the query's words for it. */
const IGNORED_WEIGHT = -0.5;
/**
 * How far a learned word is trusted, from its evidence n (one fresh own pair ≈ 1): 1 − exp(−(n/2.5)³),
 * so one pair 6 %, two 40 %, three 82 %. A word that led to a tool once may be the task's argument
 * ("the retro", "Ana", "PR 42") rather than the tool's vocabulary; a word that led there again and
 * again is vocabulary. The steepest curve that lost nothing on the tuning sets where train and test
 * share no tools (docs/research/search.md, Learning from use).
 */
const CONFIDENCE_SCALE = 2.5;
const CONFIDENCE_POWER = 3;
/** The same request again: one fresh own pair makes its tool ~63 % remembered (see recall.ts). */
const RECALL_SCALE = 1;
/** Views are read again at least this often, so weights decay between changes too. */
const VIEW_MAX_AGE_MS = 3_600_000;
/** Words and requests whose view is cached per agent, before the cache starts over. */
const VIEW_CACHE_KEYS = 20_000;

/** The content words of a query, stemmed as the index stores them (each once). */
export function learnedWordsOf(query: string): string[] {
  return [...surfaceWordsOf(query).keys()];
}

/** A request's identity for recall: its content words, order, case and stop words aside. */
export function requestKey(query: string): string {
  return keyOf(surfaceWordsOf(query));
}

/** Stem → the word as the query wrote it, for content words of a query. */
export function surfaceWordsOf(query: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of splitWords(capQuery(query).query, false)) {
    if (isStopWord(w) || /^\d+$/.test(w) || w.length > 24) continue;
    if (!out.has(stem(w))) out.set(stem(w), w);
    if (out.size >= MAX_WORDS_PER_PAIR) break;
  }
  return out;
}

function keyOf(words: Map<string, string>): string {
  return [...words.keys()].sort().join(' ');
}

/**
 * Per key (a stemmed word, or a request key): tool name → summed weight as of EPOCH, and how many pairs
 * make it. The count, not the sum, says when an entry goes: sums of opposite pairs can cancel to zero
 * while an agent's own view of them (its own pairs count double) does not.
 */
type Sums = Map<string, Map<string, { w: number; n: number }>>;
type Side = { words: Sums; requests: Sums };
/** What a pair adds, read once: its words, its request (none once a word was forgotten), its weight. */
type Read = { words: Map<string, string>; request: string | undefined; weight: number };
/** Per key, as one agent sees it now: tool name → trust in (0, 1]; null: nothing. */
type View = {
  stamp: string;
  words: Map<string, ReadonlyMap<string, number> | null>;
  requests: Map<string, ReadonlyMap<string, number> | null>;
};

export class LearnedEvidence {
  private readonly all: Side = { words: new Map(), requests: new Map() };
  private readonly byOwner = new Map<string, Side>();
  private readonly reads = new WeakMap<LearnedPair, Read>();
  /** A readable form of each learned stem ("buy" for "bui"), for the window and `--explain`. */
  private readonly surface = new Map<string, string>();
  /** One view per agent and scope, least recently used out past 256. */
  private readonly views = new LRUCache<string, View>({ max: 256 });
  private version = 0;

  constructor(private readonly now: () => number) {}

  /** A pair was kept (sign 1) or dropped (sign −1). */
  apply(owner: string, pair: LearnedPair, sign: 1 | -1): void {
    const r = this.read(pair);
    if (r.words.size === 0) return;
    let mine = this.byOwner.get(owner);
    if (!mine) this.byOwner.set(owner, (mine = { words: new Map(), requests: new Map() }));
    const w = sign * r.weight;
    for (const [word, shown] of r.words) {
      if (this.surface.size < 50_000 && !this.surface.has(word)) this.surface.set(word, shown);
      put(this.all.words, word, pair.t, w, sign);
      put(mine.words, word, pair.t, w, sign);
    }
    if (r.request !== undefined) {
      put(this.all.requests, r.request, pair.t, w, sign);
      put(mine.requests, r.request, pair.t, w, sign);
    }
    // An agent whose pairs all went (dropped past MAX_AGENTS) leaves nothing behind.
    if (mine.words.size === 0 && mine.requests.size === 0) this.byOwner.delete(owner);
    this.version++;
  }

  /**
   * Tools a word led `agent` to, with trust: own pairs fully, those of the other agents `scope` lets it
   * see at SHARED_WEIGHT (no scope: every agent's).
   */
  word(word: string, agent: string | undefined, scope: EvidenceScope = EVERYONE): ReadonlyMap<string, number> | undefined {
    return this.viewOf('words', word, agent, scope);
  }

  /** Tools the same request led `agent` to before, with trust (scope as for `word`). */
  request(key: string, agent: string | undefined, scope: EvidenceScope = EVERYONE): ReadonlyMap<string, number> | undefined {
    return this.viewOf('requests', key, agent, scope);
  }

  /** The words a tool was learned for, heaviest first (reads every learned word: for the window). */
  wordsFor(tool: string, agent: string | undefined, scope: EvidenceScope = EVERYONE): Array<{ word: string; weight: number }> {
    const out: Array<{ word: string; weight: number }> = [];
    for (const [word, tools] of this.all.words) {
      if (!tools.has(tool)) continue;
      const w = this.word(word, agent, scope)?.get(tool);
      if (w) out.push({ word: this.surface.get(word) ?? word, weight: Math.round(w * 100) / 100 });
    }
    return out.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1));
  }

  /** The tools something was learned for: by a word, or by a remembered request (for the window). */
  tools(agent: string | undefined, scope: EvidenceScope = EVERYONE): string[] {
    const out = new Set<string>();
    for (const kind of ['words', 'requests'] as const)
      for (const key of this.all[kind].keys()) for (const t of this.viewOf(kind, key, agent, scope)?.keys() ?? []) out.add(t);
    return [...out].sort();
  }

  private read(pair: LearnedPair): Read {
    let r = this.reads.get(pair);
    if (!r) {
      const words = surfaceWordsOf(pair.q);
      // A pair in the future (a clock set back) counts as fresh when first read, and decays from then.
      const ts = Math.min(pair.ts, this.now());
      this.reads.set(
        pair,
        (r = {
          words,
          // A pair with a word forgotten out of it (`o`) is no longer the request anyone asked: its
          // other words alone must not become a remembered request.
          request: words.size && pair.o === undefined ? keyOf(words) : undefined,
          weight: (pair.neg ? IGNORED_WEIGHT : 1) * 2 ** ((ts - EPOCH) / HALF_LIFE_MS),
        }),
      );
    }
    return r;
  }

  private viewOf(
    kind: 'words' | 'requests',
    key: string,
    agent: string | undefined,
    scope: EvidenceScope,
  ): ReadonlyMap<string, number> | undefined {
    const now = this.now();
    const stamp = `${this.version}:${Math.floor(now / VIEW_MAX_AGE_MS)}`;
    const viewKey = `${agent ?? '\0all'}\0${scope.key}`;
    let view = this.views.get(viewKey);
    if (!view || view.stamp !== stamp || view.words.size + view.requests.size > VIEW_CACHE_KEYS) {
      this.views.set(viewKey, (view = { stamp, words: new Map(), requests: new Map() }));
    }
    const hit = view[kind].get(key);
    if (hit !== undefined) return hit ?? undefined;
    const own = agent === undefined ? undefined : this.byOwner.get(agent)?.[kind].get(key);
    const all = scope.everyone ? this.all[kind].get(key) : this.visible(kind, key, scope.includes);
    const scale = 2 ** (-(now - EPOCH) / HALF_LIFE_MS);
    let result: Map<string, number> | null = null;
    if (all) {
      // Own pairs fully, others' at SHARED_WEIGHT: share × (the visible agents') + (1 − share) × (its own).
      const sums = new Map<string, number>();
      for (const [t, { w }] of all)
        sums.set(t, scale * (agent === undefined ? w : SHARED_WEIGHT * w + (1 - SHARED_WEIGHT) * (own?.get(t)?.w ?? 0)));
      result = trust(sums, kind === 'words' ? wordConfidence : requestConfidence);
    }
    view[kind].set(key, result);
    return result ?? undefined;
  }

  /** A key's sums over the owners a scope includes (at most MAX_AGENTS of them); undefined: none. */
  private visible(kind: 'words' | 'requests', key: string, includes: (owner: string) => boolean): Map<string, { w: number }> | undefined {
    let out: Map<string, { w: number }> | undefined;
    for (const [owner, side] of this.byOwner) {
      const tools = side[kind].get(key);
      if (!tools || !includes(owner)) continue;
      out ??= new Map();
      for (const [t, { w }] of tools) out.set(t, { w: (out.get(t)?.w ?? 0) + w });
    }
    return out;
  }
}

const EVERYONE: EvidenceScope = { everyone: true, key: '*' };

const wordConfidence = (w: number) => 1 - Math.exp(-((w / CONFIDENCE_SCALE) ** CONFIDENCE_POWER));
const requestConfidence = (w: number) => 1 - Math.exp(-w / RECALL_SCALE);

/** Adds a pair's weight `w` (sign: kept +1, dropped −1) to a key's entry for a tool. */
function put(sums: Sums, key: string, tool: string, w: number, sign: 1 | -1): void {
  let tools = sums.get(key);
  if (!tools) sums.set(key, (tools = new Map()));
  const had = tools.get(tool) ?? { w: 0, n: 0 };
  const next = { w: had.w + w, n: had.n + sign };
  if (next.n <= 0) tools.delete(tool);
  else tools.set(tool, next);
  if (tools.size === 0) sums.delete(key);
}

/**
 * Summed evidence per tool of one key (a word, or a request) as trust in (0, 1]: the tool's share of
 * the key's positive evidence — a first hit passed over counts against that hit only, not against the
 * tool chosen instead — times `confidence(evidence)`; a word that led to many tools says little about
 * any one. Tools with no positive trust are left out; null when none is left.
 */
function trust(sums: Map<string, number>, confidence: (evidence: number) => number): Map<string, number> | null {
  let total = 0;
  for (const w of sums.values()) total += Math.max(0, w);
  const out = new Map<string, number>();
  for (const [t, w] of sums) {
    const v = w <= 0 ? 0 : (w / total) * confidence(w);
    if (v > 0.01) out.set(t, v);
  }
  return out.size ? out : null;
}
