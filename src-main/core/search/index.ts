// Ranked tool search: BM25F over a tool's name, title, parameter names, parameter descriptions and
// description, with synonym expansion, typo correction and a bonus for names that cover the query.
// Hand-written because it beat MiniSearch on the gold set (see bench/search and `mws eval --engine`).
import type { ToolEntry } from '../toolbox/toolbox.js';
import { splitWords, stem, isStopWord } from './text.js';
import { buildSynonyms, joinPhrases, type SynonymTable } from './synonyms.js';
import { TypoIndex } from './typo.js';
import { actionOf, queryAction, toolAction, type Action } from './intent.js';
import { MAX_QUERY_WORDS, MAX_TYPO_WORDS_PER_QUERY, capQuery } from './limits.js';

type Field = 0 | 1 | 2 | 3 | 4 | 5; // name, title, params, paramDesc, desc, backend
const FIELDS = 6;
/**
 * How much a match in each field counts. Names say most about what a tool does; the backend prefix
 * (`calendar` in `calendar_create_event`) is kept apart, since every tool of a backend shares it.
 */
export const FIELD_WEIGHTS = [3.0, 1.2, 1.0, 0.35, 0.9, 1.0] as const;
/** Length normalization per field: names are short and even, descriptions vary. */
const FIELD_B = [0.3, 0.3, 0.5, 0.75, 0.75, 0] as const;
const K1 = 1.2;
/** Descriptions are cut here: the first sentences say what a tool is for, the rest says how. */
export const DESCRIPTION_CHARS = 600;
/** Weight of a typo-corrected word, and of the secondary words a path or URL implies. */
const TYPO_WEIGHT = 0.85;
const IMPLIED_WEIGHT = 0.5;
/** Multiplier when the tool's name covers every word of the query (directly or by synonym). */
const FULL_NAME_COVER_BONUS = 0.6;
/** Multiplier for a tool whose name verb is in the class of the query's action (see intent.ts). */
const ACTION_MATCH_BONUS = 0.35;
/**
 * Descriptions nearly all open with a generic verb ("Show…", "List…", "Returns…"): an action word in a
 * description counts this much, so a tool's name, not its prose, answers "what does it do".
 */
const DESCRIPTION_ACTION_WEIGHT = 0.3;
/** A query word's best alternative counts fully; each further alternative that also matches adds this share. */
const EXTRA_ALT_SHARE = 0.3;
/** Tokens that look like a file path or a URL say which parameter the user has in mind. */
const PATH_LIKE = /^[\w.-]*\/[\w./-]*$|^[\w-]+\.[a-z]{1,5}$/i;
const URL_LIKE = /^[a-z]+:\/\/\S+$|^www\.\S+$/i;

/** A term's documents, and their per-field counts flattened with a stride of FIELDS. */
type Postings = { docs: number[]; tf: number[] };
type Alt = { term: string; weight: number };
export type Hit = { entry: ToolEntry; score: number };

export class SearchIndex {
  readonly entries: ToolEntry[];
  private readonly postings = new Map<string, Postings>();
  private readonly lengths: number[][] = [];
  private readonly avg = new Float32Array(FIELDS);
  private readonly actions: Array<Action | undefined> = [];
  /** Per tool: each distinct name term's bit, so coverage counts distinct name words. */
  private readonly nameBits: Array<Map<string, number>> = [];
  private readonly typos = new TypoIndex();
  private readonly synonyms: SynonymTable;

  private readonly backendPrefixes: Set<string>;

  constructor(entries: Iterable<ToolEntry>, aliases: Record<string, string[]> = {}, backendPrefixes: Iterable<string> = []) {
    this.entries = [...entries];
    this.backendPrefixes = new Set(backendPrefixes);
    this.synonyms = buildSynonyms(aliases);
    for (const k of Object.keys(aliases)) for (const w of splitWords(k)) this.typos.add(w);
    const totals = new Float64Array(FIELDS);
    this.entries.forEach((e, doc) => {
      const fields = this.fieldsOf(e);
      const lens = [0, 0, 0, 0, 0, 0];
      const tfs = new Map<string, number[]>();
      fields.forEach((words, f) => {
        for (const w of words) {
          if (isStopWord(w)) continue;
          this.typos.add(w);
          const t = stem(w);
          let tf = tfs.get(t);
          if (!tf) tfs.set(t, (tf = [0, 0, 0, 0, 0, 0]));
          tf[f]! += f === 4 && actionOf(w) ? DESCRIPTION_ACTION_WEIGHT : 1;
          lens[f]! += 1;
        }
      });
      for (const [t, tf] of tfs) {
        let p = this.postings.get(t);
        if (!p) this.postings.set(t, (p = { docs: [], tf: [] }));
        p.docs.push(doc);
        for (let f = 0; f < FIELDS; f++) p.tf.push(tf[f]!);
      }
      this.lengths.push(lens);
      this.actions.push(toolAction(splitWords(e.upstreamName)));
      const bits = new Map<string, number>();
      for (const w of fields[0]) if (!isStopWord(w) && !bits.has(stem(w)) && bits.size < 31) bits.set(stem(w), bits.size);
      this.nameBits.push(bits);
      for (let f = 0; f < FIELDS; f++) totals[f]! += lens[f]!;
    });
    const n = Math.max(1, this.entries.length);
    for (let f = 0; f < FIELDS; f++) this.avg[f] = totals[f]! / n || 1;
  }

  /** The words of each field, in order: name, title, parameter names, parameter descriptions, description, backend. */
  private fieldsOf(e: ToolEntry): [string[], string[], string[], string[], string[], string[]] {
    const schema = e.tool.inputSchema as { properties?: Record<string, { description?: unknown; enum?: unknown }> };
    const props = Object.entries(schema.properties ?? {});
    // Enum values name what a tool can do ("commenter", "pdf", "declined"): they count with parameter names.
    const enumWords = props.flatMap(([, p]) => (Array.isArray(p?.enum) ? p.enum.filter((v): v is string => typeof v === 'string').flatMap((v) => splitWords(v)) : []));
    const nameWords = splitWords(e.upstreamName);
    const backend: string[] = e.name !== e.upstreamName ? splitWords(e.vendor) : [];
    if (nameWords.length > 1 && this.backendPrefixes.has(nameWords[0]!)) backend.push(nameWords.shift()!);
    return [
      nameWords,
      splitWords(e.tool.title ?? ''),
      [...props.flatMap(([k]) => splitWords(k)), ...enumWords],
      props.flatMap(([, p]) => (typeof p?.description === 'string' ? splitWords(p.description.slice(0, 200)) : [])),
      splitWords((e.tool.description ?? '').slice(0, DESCRIPTION_CHARS)),
      backend,
    ];
  }

  /** Each query word with its alternatives: itself (or its typo corrections) and its synonyms. */
  plan(query: string): Alt[][] {
    const groups: Alt[][] = [];
    const rest: string[] = [];
    // Bounded work whatever the input (see limits.ts): the query is cut, few words are typo-corrected.
    let typoBudget = MAX_TYPO_WORDS_PER_QUERY;
    const tried = new Map<string, string[]>();
    const correct = (w: string): string[] => {
      let c = tried.get(w);
      if (!c) tried.set(w, (c = typoBudget-- > 0 ? this.typos.correct(w) : []));
      return c;
    };
    for (const token of joinPhrases(capQuery(query).query).split(/\s+/)) {
      if (URL_LIKE.test(token)) groups.push(this.alts(['url', 'navigate', 'page', 'link']));
      else if (PATH_LIKE.test(token)) groups.push(this.alts(['path', 'file']));
      else rest.push(token);
    }
    for (const raw of splitWords(rest.join(' '), false)) {
      if (groups.length >= MAX_QUERY_WORDS) break;
      const pieces = this.knows(raw) || /^\d+$/.test(raw) ? [raw] : correct(raw).length ? [raw] : splitWords(raw);
      for (const word of pieces) {
        if (isStopWord(word) || groups.length >= MAX_QUERY_WORDS) continue;
        const alts = new Map<string, number>();
        const put = (t: string, w: number) => alts.set(t, Math.max(alts.get(t) ?? 0, w));
        const base = stem(word);
        const direct = this.postings.has(base) || this.synonyms.has(base);
        const corrected = direct ? [] : correct(word).map(stem);
        const heads = direct || corrected.length === 0 ? [[base, 1] as const] : corrected.map((c) => [c, TYPO_WEIGHT] as const);
        for (const [t, w] of heads) {
          put(t, w);
          for (const s of this.synonyms.get(t) ?? []) put(s.term, w * s.weight);
        }
        groups.push([...alts].map(([term, weight]) => ({ term, weight })));
      }
    }
    return groups;
  }

  /** A group of equally weighted alternative words (first counts fully, the others as synonyms). */
  private alts(words: string[]): Alt[] {
    return words.map((w, i) => ({ term: stem(w), weight: i === 0 ? 1 : IMPLIED_WEIGHT }));
  }

  private knows(word: string): boolean {
    const s = stem(word);
    return this.postings.has(s) || this.synonyms.has(s);
  }

  // Scoring scratch space, reused across searches so a query allocates almost nothing (GC pauses
  // were the p99 on large catalogs): one slot per touched document, `groups` cells per slot.
  private slotOf = new Int32Array(0);
  private best = new Float32Array(0);
  private sum = new Float32Array(0);
  private cover = new Uint8Array(0);
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
    }
  }

  /** Ranks the tools (optionally only those `within`) for a free-text query; best first. */
  search(rawQuery: string, limit = 10, within?: (e: ToolEntry) => boolean): Hit[] {
    const query = capQuery(rawQuery).query;
    const groups = this.plan(query);
    if (groups.length === 0) return [];
    const action = queryAction(splitWords(joinPhrases(query), false));
    const n = this.entries.length;
    const G = groups.length;
    this.scratch(G);
    let used = 0;
    groups.forEach((alts, g) => {
      for (const { term, weight } of alts) {
        const list = this.postings.get(term);
        if (!list) continue;
        const df = list.docs.length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let p = 0; p < df; p++) {
          const doc = list.docs[p]!;
          const base = p * FIELDS;
          let tfw = 0;
          const lens = this.lengths[doc]!;
          for (let f = 0 as Field; f < FIELDS; f = (f + 1) as Field) {
            const c = list.tf[base + f]!;
            if (c === 0) continue;
            tfw += (FIELD_WEIGHTS[f] * c) / (1 - FIELD_B[f] + (FIELD_B[f] * lens[f]!) / this.avg[f]!);
          }
          const sc = weight * idf * (tfw / (K1 + tfw));
          let slot = this.slotOf[doc]!;
          if (slot < 0) {
            slot = used++;
            this.slotOf[doc] = slot;
            this.touched[slot] = doc;
            this.nameMask[slot] = 0;
            this.best.fill(0, slot * G, slot * G + G);
            this.sum.fill(0, slot * G, slot * G + G);
            this.cover.fill(0, slot * G, slot * G + G);
          }
          const cell = slot * G + g;
          if (sc > this.best[cell]!) this.best[cell] = sc;
          this.sum[cell]! += sc;
          if (list.tf[base]! > 0) {
            this.cover[cell] = 1;
            this.nameMask[slot]! |= 1 << (this.nameBits[doc]!.get(term) ?? 0);
          }
        }
      }
    });
    // Keep only the best `limit`, sorted, as scores come: hit lists run to thousands on big catalogs.
    const hits: Hit[] = [];
    const better = (a: Hit, b: Hit) => a.score > b.score || (a.score === b.score && a.entry.name < b.entry.name);
    for (let slot = 0; slot < used; slot++) {
      const doc = this.touched[slot]!;
      this.slotOf[doc] = -1;
      const entry = this.entries[doc]!;
      if (within && !within(entry)) continue;
      let total = 0;
      let covered = 0;
      for (let g = 0; g < G; g++) {
        const cell = slot * G + g;
        total += this.best[cell]! + EXTRA_ALT_SHARE * (this.sum[cell]! - this.best[cell]!);
        covered += this.cover[cell]!;
      }
      // One name word cannot cover two query words ("list" for both "what" and "inbox").
      const coverage = Math.min(covered, popcount(this.nameMask[slot]!)) / G;
      total *= 1 + FULL_NAME_COVER_BONUS * (coverage === 1 ? 1 : coverage * 0.5);
      if (action && this.actions[doc] === action) total *= 1 + ACTION_MATCH_BONUS;
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

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}
