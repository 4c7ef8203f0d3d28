// Ranked tool search: BM25F over a tool's name, title, parameter names, parameter descriptions,
// description and learned words, with synonyms (never above the word itself), typo correction for
// non-words, a bonus for names that cover the query, and a coordination factor for tools that match
// more of the query's words.
// Hand-written because it ranks better than MiniSearch's plain BM25 here (docs/research/search.md).
import type { ToolEntry } from '../toolbox/toolbox.js';
import { splitWords, stem, isStopWord } from './text.js';
import { buildSynonyms, joinPhrases, type SynonymTable } from './synonyms.js';
import { TypoIndex } from './typo.js';
import { MAX_QUERY_WORDS, MAX_SCORED_WORDS, MAX_TYPO_WORD_CHARS, MAX_TYPO_WORDS_PER_QUERY, capQuery } from './limits.js';
import { isEnglishWord } from './englishWords.js';
import { withoutArguments } from './queryArguments.js';
import { toolFields } from './toolFields.js';
import { IN_NAME, PostingsTable } from './postings.js';
import {
  FIELDS,
  BUILD_SLICE_TOOLS,
  BUILD_SLICE_TERMS,
  BUILD_SLICE_POSTINGS,
  FIELD_WEIGHTS,
  FIELD_B,
  K1,
  TYPO_WEIGHT,
  IMPLIED_WEIGHT,
  FULL_NAME_COVER_BONUS,
  COORDINATION,
  NAMED_BACKEND_BONUS,
  DERIVED_SHARE,
  EXTRA_ALT_SHARE,
  PATH_LIKE,
  URL_LIKE,
  OPAQUE_MIN_CHARS,
  LEARNED_WEIGHT,
  LEARNED_GAP_POWER,
} from './rankingWeights.js';

export { DESCRIPTION_CHARS, FIELD_WEIGHTS, LEARNED_WEIGHT } from './rankingWeights.js';

/** A query word's alternative: the word itself (or its typo corrections), or a synonym (`syn`). */
export type Alt = { term: string; weight: number; syn?: boolean };
/** Extra evidence per query term from outside the index (learned words): tool index → weight ≥ 0. */
export type TermBoost = (term: string) => ReadonlyMap<number, number> | undefined;
export type Hit = { entry: ToolEntry; score: number };

export class SearchIndex {
  readonly entries: ToolEntry[];
  /**
   * Per term, its tools, each with its BM25F saturation tf/(k1+tf) over the weighted, length-normalised
   * fields (precomputed at build time, so a query only multiplies by idf) and the fields holding it.
   */
  private postings = new PostingsTable(0, 0);
  /** Per tool: each distinct name term's bit, so coverage counts distinct name words. */
  private readonly nameBits: Array<Map<string, number>> = [];
  private readonly typos = new TypoIndex();
  private readonly synonyms: SynonymTable;
  private readonly backendPrefixes: Set<string>;
  private readonly docByName = new Map<string, number>();
  /** The rest of the build, while it is done in slices (buildFor); undefined once the index is whole. */
  private building: Generator<void, void, void> | undefined;
  /** Per tool, the stemmed words of its backend (vendor or shared name prefix); and all such words. */
  private readonly backendWords: string[][] = [];
  private readonly allBackendWords = new Set<string>();

  /**
   * `deferred`: the index is built by buildFor() in slices (an upstream change at 5,000 tools must not
   * hold calls for the whole build); any query before it is whole finishes the build first.
   */
  constructor(
    entries: Iterable<ToolEntry>,
    aliases: Record<string, string[]> = {},
    backendPrefixes: Iterable<string> = [],
    deferred = false,
  ) {
    this.entries = [...entries];
    this.backendPrefixes = new Set(backendPrefixes);
    this.synonyms = buildSynonyms(aliases);
    // The English word list (~5 MB in memory) is read by the first query word that needs a typo
    // correction (isEnglishWord: a query word the index does not know), not here, at start-up.
    for (const k of Object.keys(aliases)) for (const w of splitWords(k)) this.typos.add(w);
    this.building = this.build();
    if (!deferred) this.finish();
  }

  /** Builds for about `ms` (by `now`); answers whether the index is whole. */
  buildFor(ms: number, now: () => number = () => performance.now()): boolean {
    const end = now() + ms;
    while (this.building) {
      if (this.building.next().done) this.building = undefined;
      else if (now() >= end) return false;
    }
    return true;
  }

  private finish(): void {
    while (this.building) if (this.building.next().done) this.building = undefined;
  }

  /** The build, one slice per `yield`: a few tools, or a few hundred terms. */
  private *build(): Generator<void, void, void> {
    const totals = new Float64Array(FIELDS);
    const termIds = new Map<string, number>();
    const rows = new PostingRows(this.entries.length);
    const lengths = new Int32Array(this.entries.length * FIELDS);
    for (let doc = 0; doc < this.entries.length; doc++) {
      const e = this.entries[doc]!;
      if (doc % BUILD_SLICE_TOOLS === BUILD_SLICE_TOOLS - 1) yield;
      this.docByName.set(e.name, doc);
      const fields = toolFields(e, this.backendPrefixes);
      const tfs = new Map<number, number[]>();
      fields.forEach((words, f) => {
        for (const w of words) {
          if (isStopWord(w)) continue;
          this.typos.add(w);
          const t = stem(w);
          let id = termIds.get(t);
          if (id === undefined) termIds.set(t, (id = termIds.size));
          let tf = tfs.get(id);
          if (!tf) tfs.set(id, (tf = [0, 0, 0, 0, 0, 0]));
          tf[f]! += 1;
          lengths[doc * FIELDS + f]! += 1;
        }
      });
      rows.add(doc, tfs);
      const bits = new Map<string, number>();
      for (const w of fields[0]) if (!isStopWord(w) && !bits.has(stem(w)) && bits.size < 31) bits.set(stem(w), bits.size);
      this.nameBits.push(bits);
      const bw = [...new Set(fields[5].map(stem))];
      this.backendWords.push(bw);
      for (const w of bw) this.allBackendWords.add(w);
      for (let f = 0; f < FIELDS; f++) totals[f]! += lengths[doc * FIELDS + f]!;
    }
    const n = Math.max(1, this.entries.length);
    const avg = new Float64Array(FIELDS);
    for (let f = 0; f < FIELDS; f++) avg[f] = totals[f]! / n || 1;
    const perTerm = new Int32Array(termIds.size);
    for (let r = 0; r < rows.n; r++) perTerm[rows.term[r]!]! += 1;
    const table = new PostingsTable(termIds.size, rows.n);
    // Where each term's next posting goes: terms in the order they first came, and, as rows are in tool
    // order, each term's tools in tool order.
    const next = new Int32Array(termIds.size);
    let terms = 0;
    for (const t of termIds.keys()) {
      next[terms] = table.add(t, perTerm[terms]!);
      if (++terms % BUILD_SLICE_TERMS === 0) yield;
    }
    const { docs, sat, fields } = table;
    for (let doc = 0, r = 0; r < rows.n; r++) {
      if (r % BUILD_SLICE_POSTINGS === BUILD_SLICE_POSTINGS - 1) yield;
      while (r >= rows.from[doc + 1]!) doc++;
      let tfw = 0;
      let bits = 0;
      for (let f = 0; f < FIELDS; f++) {
        const c = rows.tf[r * FIELDS + f]!;
        if (c === 0) continue;
        tfw += (FIELD_WEIGHTS[f]! * c) / (1 - FIELD_B[f]! + (FIELD_B[f]! * lengths[doc * FIELDS + f]!) / avg[f]!);
        bits |= 1 << f;
      }
      const at = next[rows.term[r]!]!++;
      docs[at] = doc;
      sat[at] = tfw / (K1 + tfw);
      fields[at] = bits;
    }
    this.postings = table;
  }

  /** The fields of tool `doc` that hold `term`, one bit per field in FIELD_NAMES' order (0: none). */
  fieldsOf(term: string, doc: number): number {
    this.finish();
    return this.postings.fieldsOf(term, doc);
  }

  /** The index of a tool by its name (for learned words), or -1. */
  docOf(name: string): number {
    this.finish();
    return this.docByName.get(name) ?? -1;
  }

  /**
   * Each distinct query word with its alternatives: itself (or, for a word that is neither in the
   * catalog nor an English word, its typo corrections) and its synonyms. A word repeated counts once.
   */
  plan(query: string, learned?: (term: string) => boolean): Alt[][] {
    this.finish();
    const groups: Alt[][] = [];
    const rest: string[] = [];
    const seen = new Set<string>();
    // Bounded work whatever the input (see limits.ts): the query is cut, few words are typo-corrected.
    let typoBudget = MAX_TYPO_WORDS_PER_QUERY;
    const tried = new Map<string, string[]>();
    const correct = (w: string): string[] => {
      if (w.length > MAX_TYPO_WORD_CHARS || isEnglishWord(w)) return [];
      let c = tried.get(w);
      if (!c) tried.set(w, (c = typoBudget-- > 0 ? this.typos.correct(w) : []));
      return c;
    };
    const implied = (key: string, words: string[]) => {
      if (seen.has(key)) return;
      seen.add(key);
      groups.push(this.alts(words));
    };
    for (const token of joinPhrases(withoutArguments(capQuery(query).query)).split(/\s+/)) {
      if (URL_LIKE.test(token)) implied('\0url', ['url', 'navigate', 'page', 'link']);
      else if (PATH_LIKE.test(token)) implied('\0path', ['path', 'file']);
      else rest.push(token);
    }
    for (const raw of splitWords(rest.join(' '), false)) {
      if (groups.length >= MAX_QUERY_WORDS) break;
      const known = this.knows(raw) || !!learned?.(stem(raw));
      if (!known && raw.length >= OPAQUE_MIN_CHARS && /\d/.test(raw) && /[a-z]/.test(raw)) continue;
      const pieces = known || /^\d+$/.test(raw) ? [raw] : correct(raw).length ? [raw] : splitWords(raw);
      for (const word of pieces) {
        if (isStopWord(word) || groups.length >= MAX_QUERY_WORDS) continue;
        const base = stem(word);
        if (seen.has(base)) continue;
        seen.add(base);
        const alts = new Map<string, Alt>();
        const put = (term: string, weight: number, syn: boolean) => {
          const had = alts.get(term);
          if (!had || had.weight < weight) alts.set(term, { term, weight, syn: syn && (!had || had.syn) });
        };
        // A word agents' searches taught (a team's "gdrive") is a word, not a typo of a catalog word.
        const direct = this.postings.has(base) || this.synonyms.has(base) || !!learned?.(base);
        const corrected = direct ? [] : correct(word).map(stem);
        const heads = direct || corrected.length === 0 ? [[base, 1] as const] : corrected.map((c) => [c, TYPO_WEIGHT] as const);
        for (const [t, w] of heads) put(t, w, false);
        for (const [t, w] of heads) for (const s of this.synonyms.get(t) ?? []) put(s.term, w * s.weight, true);
        groups.push([...alts.values()]);
      }
    }
    return this.rarest(groups, learned);
  }

  /**
   * The MAX_SCORED_WORDS groups that say most about the tool, in query order (bounded scoring work):
   * the words the catalog (or learning) has, rarest first; then words it knows only through a synonym;
   * never first a word that matches nothing. Such a word can add nothing to any tool's score, yet it
   * looks rarest of all: in a long request the words no tool uses ("vacation", "question", a person's
   * name) filled every place, and the request's real words were never scored.
   */
  private rarest(groups: Alt[][], learned?: (term: string) => boolean): Alt[][] {
    if (groups.length <= MAX_SCORED_WORDS) return groups;
    const n = this.entries.length;
    const rank = (alts: Alt[]): number => {
      let own = Infinity;
      let found = false;
      for (const a of alts) {
        const df = this.postings.df(a.term);
        if (!a.syn && learned?.(a.term)) own = 0;
        if (df === undefined) continue;
        found = true;
        if (!a.syn) own = Math.min(own, df);
      }
      return own < Infinity ? own : found ? n + 1 : Infinity;
    };
    const keep = new Set(
      groups
        .map((alts, i) => ({ i, rank: rank(alts) }))
        .sort((a, b) => a.rank - b.rank || a.i - b.i)
        .slice(0, MAX_SCORED_WORDS)
        .map((x) => x.i),
    );
    return groups.filter((_, i) => keep.has(i));
  }

  /** A group of alternative words implied by a token: the first counts fully, the others as synonyms. */
  private alts(words: string[]): Alt[] {
    return words.map((w, i) => ({ term: stem(w), weight: i === 0 ? 1 : IMPLIED_WEIGHT, syn: i > 0 }));
  }

  private knows(word: string): boolean {
    const s = stem(word);
    return this.postings.has(s) || this.synonyms.has(s);
  }

  private idf(df: number): number {
    const n = this.entries.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  // Scoring scratch space, reused across searches so a query allocates almost nothing (a GC pause
  // would be a slow query on a large catalog): one slot per touched document, `groups` cells per slot.
  private slotOf = new Int32Array(0);
  private best = new Float32Array(0);
  private sum = new Float32Array(0);
  private cover = new Uint8Array(0);
  /** Per cell: the tool's own text matched the query word (not only its learned words). */
  private text = new Uint8Array(0);
  private touched = new Int32Array(0);
  private nameMask = new Int32Array(0);

  private scratch(groups: number): void {
    const n = this.entries.length;
    if (this.slotOf.length < n) {
      this.slotOf = new Int32Array(n).fill(-1);
      this.touched = new Int32Array(n);
      this.nameMask = new Int32Array(n);
    }
    if (this.best.length < n * groups) {
      this.best = new Float32Array(n * groups);
      this.sum = new Float32Array(n * groups);
      this.cover = new Uint8Array(n * groups);
      this.text = new Uint8Array(n * groups);
    }
  }

  /**
   * Learned words as one more field of a query word's alternatives: per tool the word led agents to,
   * saturated like the other fields, with the word's idf over tools and learned fields together, and
   * scaled by how foreign the word is to the catalog (LEARNED_GAP_POWER). It takes part in the word's
   * best-of-alternatives, so it can stand in for a missing match but never counts a word twice.
   */
  private addLearned(learned: ReadonlyMap<number, number>, weight: number, df: number, add: (doc: number, score: number) => void): void {
    const idf = this.idf(Math.min(this.entries.length, df + learned.size));
    const gap = (this.idf(df) / (this.idf(0) || 1)) ** LEARNED_GAP_POWER;
    for (const [doc, lw] of learned) {
      if (doc < 0 || doc >= this.entries.length || lw <= 0) continue;
      add(doc, weight * idf * gap * ((LEARNED_WEIGHT * lw) / (K1 + LEARNED_WEIGHT * lw)));
    }
  }

  /**
   * Ranks the tools (optionally only those `within`) for a free-text query; best first. `boost` adds
   * learned words as one more field: per query term, tools that term led agents to, with a weight.
   */
  search(rawQuery: string, limit = 10, within?: (e: ToolEntry) => boolean, boost?: TermBoost): Hit[] {
    this.finish();
    const query = capQuery(rawQuery).query;
    const groups = this.plan(query, learnedKnows(boost));
    if (groups.length === 0) return [];
    const G = groups.length;
    const namedBackends = new Set<string>();
    for (const alts of groups)
      for (const a of alts) if (!a.syn && a.weight === 1 && this.allBackendWords.has(a.term)) namedBackends.add(a.term);
    this.scratch(G);
    let used = 0;
    const slot = (doc: number): number => {
      let s = this.slotOf[doc]!;
      if (s < 0) {
        s = used++;
        this.slotOf[doc] = s;
        this.touched[s] = doc;
        this.nameMask[s] = 0;
        this.best.fill(0, s * G, s * G + G);
        this.sum.fill(0, s * G, s * G + G);
        this.cover.fill(0, s * G, s * G + G);
        this.text.fill(0, s * G, s * G + G);
      }
      return s;
    };
    const add = (cell: number, sc: number) => {
      if (sc > this.best[cell]!) this.best[cell] = sc;
      this.sum[cell]! += sc;
    };
    // Each word's own idf (the word as written, not a synonym or a typo correction; 0: not in the catalog).
    const ownIdf = groups.map((alts) => {
      let best = 0;
      for (const a of alts) {
        const df = !a.syn && a.weight === 1 ? this.postings.df(a.term) : undefined;
        if (df !== undefined) best = Math.max(best, this.idf(df));
      }
      return best;
    });
    const table = this.postings;
    groups.forEach((alts, g) => {
      // A synonym or typo correction adds evidence but never outranks a word the user wrote: its idf is
      // capped at the word's own, and at DERIVED_SHARE of the rarest other word found as written
      // ("tell" is in no tool, so its synonym "send" had full weight beside "philosophy").
      const headIdf = ownIdf[g]!;
      let others = 0;
      for (let h = 0; h < G; h++) if (h !== g) others = Math.max(others, ownIdf[h]!);
      const derivedCap = Math.min(headIdf > 0 ? headIdf : Infinity, others > 0 ? DERIVED_SHARE * others : Infinity);
      for (const { term, weight, syn } of alts) {
        const id = table.id(term);
        const from = id < 0 ? 0 : table.start(id);
        const to = id < 0 ? 0 : table.end(id);
        const df = to - from;
        if (id >= 0) {
          const derived = syn || weight < 1;
          const idf = derived ? Math.min(derivedCap, this.idf(df)) : this.idf(df);
          const w = weight * idf;
          for (let p = from; p < to; p++) {
            const doc = table.docs[p]!;
            const s = slot(doc);
            const cell = s * G + g;
            add(cell, w * table.sat[p]!);
            this.text[cell] = 1;
            if (table.fields[p]! & IN_NAME) {
              this.cover[cell] = 1;
              this.nameMask[s]! |= 1 << (this.nameBits[doc]!.get(term) ?? 0);
            }
          }
        }
        const learned = syn ? undefined : boost?.(term);
        if (learned)
          this.addLearned(learned, weight, df, (doc, sc) => {
            // Learned words fill words a tool's own text lacks ("buy" for the browser); where its text
            // already has the word, they would only count it twice ("move" learned for drive_move_file
            // took "move my 3pm to thursday" from the calendar on the gold set's held-out half).
            const cell = slot(doc) * G + g;
            if (!this.text[cell]) add(cell, sc);
          });
      }
    });
    // Keep only the best `limit`, sorted, as scores come: hit lists run to thousands on big catalogs.
    const hits: Hit[] = [];
    const better = (a: Hit, b: Hit) => a.score > b.score || (a.score === b.score && a.entry.name < b.entry.name);
    for (let s = 0; s < used; s++) {
      const doc = this.touched[s]!;
      this.slotOf[doc] = -1;
      const entry = this.entries[doc]!;
      if (within && !within(entry)) continue;
      let total = 0;
      let covered = 0;
      let matched = 0;
      for (let g = 0; g < G; g++) {
        const cell = s * G + g;
        total += this.best[cell]! + EXTRA_ALT_SHARE * (this.sum[cell]! - this.best[cell]!);
        covered += this.cover[cell]!;
        matched += this.text[cell]!; // the tool's own words: learned ones do not make it cover more of the query
      }
      total *= 1 - COORDINATION + (COORDINATION * matched) / G;
      // One name word cannot cover two query words ("list" for both "what" and "inbox").
      const coverage = Math.min(covered, popcount(this.nameMask[s]!)) / G;
      total *= 1 + FULL_NAME_COVER_BONUS * (coverage === 1 ? 1 : coverage * 0.5);
      if (namedBackends.size && this.backendWords[doc]!.some((w) => namedBackends.has(w))) total *= 1 + NAMED_BACKEND_BONUS;
      const hit = { entry, score: total };
      if (hits.length === limit && !better(hit, hits[limit - 1]!)) continue;
      let i = hits.length === limit ? limit - 1 : hits.length;
      while (i > 0 && better(hit, hits[i - 1]!)) {
        hits[i] = hits[i - 1]!;
        i--;
      }
      hits[i] = hit;
    }
    return hits;
  }
}

/** Whether the learned field knows a term (so the query word is not typo-corrected away from it). */
export function learnedKnows(boost: TermBoost | undefined): ((term: string) => boolean) | undefined {
  return boost ? (term) => boost(term) !== undefined : undefined;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/**
 * The build's postings before they go into the table: one row per (term, tool), in tool order, with
 * the term's number and its count in each field; each tool's rows start at `from[tool]`. A few flat
 * arrays, not two lists per term: those lived through the whole build, done in slices, so V8 moved them
 * to its old generation, where they were ~17 MB of garbage after it at 5,000 tools. The arrays grow to
 * what the tools so far say all of them will need, so they are seldom copied (docs/research/measured.md).
 */
class PostingRows {
  term = new Int32Array(0);
  /** 16 bits a count, until a count needs more (a parameter's enum of 70,000 equal words): then 32. */
  tf: Uint16Array | Uint32Array = new Uint16Array(0);
  readonly from: Int32Array;
  n = 0;

  constructor(private readonly tools: number) {
    this.from = new Int32Array(tools + 1);
  }

  /** Tool `doc`'s rows, each term once, after those of the tools before it. */
  add(doc: number, tfs: ReadonlyMap<number, readonly number[]>): void {
    if (this.n + tfs.size > this.term.length) this.grow(doc, this.n + tfs.size);
    for (const [term, tf] of tfs) {
      this.term[this.n] = term;
      for (let f = 0; f < FIELDS; f++) {
        if (tf[f]! > 0xffff && this.tf instanceof Uint16Array) this.tf = Uint32Array.from(this.tf);
        this.tf[this.n * FIELDS + f] = tf[f]!;
      }
      this.n++;
    }
    this.from[doc + 1] = this.n;
  }

  private grow(doc: number, needed: number): void {
    // The rows per tool so far, for every tool, and a little more; at least a quarter more than now.
    const size = Math.max(needed, Math.ceil((needed / (doc + 1)) * this.tools * 1.1), Math.ceil(this.term.length * 1.25), 64);
    const term = new Int32Array(size);
    term.set(this.term);
    this.term = term;
    const tf = this.tf instanceof Uint16Array ? new Uint16Array(size * FIELDS) : new Uint32Array(size * FIELDS);
    tf.set(this.tf);
    this.tf = tf;
  }
}
