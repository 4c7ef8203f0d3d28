// search_tools: decides what kind of question a query is (exact name, backend, free text, nothing)
// and answers it. `mws search` and the meta-tool both call this, so they give the same reply.
import { LRUCache } from 'lru-cache';
import type { Toolbox, ToolEntry } from '../toolbox/toolbox.js';
import { SearchIndex, type TermBoost } from './index.js';
import { explainHits, type Explained } from './explain.js';
import { NearNames } from './nearNames.js';
import { overview } from './overview.js';
import { rankerFor, type Earlier, type Ranker, type SearchEngine } from './rankers.js';

export { FUSION, type SearchEngine } from './rankers.js';
import type { SearchLearning } from './learning.js';
import { splitTasks } from './tasks.js';
import { withRecall } from './recall.js';
import { backendsOf } from './backends.js';
import { budgetedReply, hitView, type SearchAnswer } from './reply.js';
import { splitWords } from './text.js';
import { MAX_NAME_CHARS, QUERY_CUT_NOTE, capQuery } from './limits.js';
import { DenseIndex, type SemanticVectors } from './denseIndex.js';
import { nextTurn } from '../timeSlice.js';

export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 50;

export type { SearchAnswer } from './reply.js';

export type Resolved = {
  kind: SearchAnswer['kind'];
  query: string;
  entries: ToolEntry[];
  backend?: string;
  total?: number;
  /** The query was longer than MAX_QUERY_CHARS and only its start was searched. */
  cut?: boolean;
  /** A query naming several tasks: the best tool for each, placed first among the hits. */
  tasks?: Array<{ task: string; tool: string }>;
};

export const SEARCH_ENGINES: readonly SearchEngine[] = ['hybrid', 'bm25f', 'dense', 'minisearch'];

type Prepared = {
  index: Ranker;
  bm25f: SearchIndex;
  backends: Map<string, ToolEntry[]>;
  byLowerName: Map<string, ToolEntry>;
  names: NearNames;
  /** Learned words mapped to this index's tools, per agent, for one learning revision. */
  /** Learned boosts by query, least recently used out past 256. */
  boosts: LRUCache<string, { revision: string; boost: TermBoost }>;
  /** The tools' sentence vectors as one matrix, once every tool has one (dense and hybrid engines). */
  dense?: DenseIndex;
};

/** A task of a several-task query is ranked among this many of the whole query's best tools. */
const TASK_POOL = 12;
/** How much the whole query's ranking counts beside the task's own when picking a task's tool. */
const TASK_CONTEXT_WEIGHT = 0.25;
/** The longest the search index build holds the event loop at a time when warmed in slices. */
export const WARM_SLICE_MS = 4;

export class SearchService {
  private prepared = new WeakMap<Toolbox, Prepared>();
  /** The build in slices under way (warmInSlices), and the toolbox it is for. */
  private building: { toolbox: Toolbox; done: Promise<void> } | undefined;

  constructor(
    private readonly toolbox: () => Toolbox,
    private aliases: Record<string, string[]> = {},
    private readonly engine: SearchEngine = 'bm25f',
    /** Learned words from search→call pairs; none: ranking by the tools' own text alone. */
    readonly learning?: SearchLearning,
    /** The tools' sentence vectors (dense and hybrid engines); none, not ready, or failed: lexical ranking. */
    private readonly vectors?: SemanticVectors,
  ) {}

  /** The config's search aliases after an edit: the indexes are built again at the next search when they changed. */
  setAliases(next: Record<string, string[]> = {}): void {
    if (JSON.stringify(next) === JSON.stringify(this.aliases)) return;
    this.aliases = next;
    this.prepared = new WeakMap();
    this.building = undefined;
  }

  /** Whether this engine ranks by meaning at all. */
  get semantic(): boolean {
    return (this.engine === 'hybrid' || this.engine === 'dense') && !!this.vectors;
  }

  /** The query's sentence vector when every tool has one (else undefined: lexical, the same reply). */
  async queryVector(query: string | undefined): Promise<Float32Array | undefined> {
    if (!this.semantic) return undefined;
    const q = capQuery((query ?? '').trim()).query;
    const v = this.vectors!;
    v.activate();
    if (!q || !v.ready()) return undefined;
    const p = this.prepare(this.toolbox());
    // An exact tool name is answered by its fast path: its meaning would not change the reply.
    if (p.byLowerName.has(q.toLowerCase()) || !this.denseOf(p)) return undefined;
    return v.embedQuery(q).catch(() => undefined);
  }

  /** This index's vectors as a matrix, made once the model has them all (undefined until then). */
  private denseOf(p: Prepared): DenseIndex | undefined {
    if (!p.dense && this.vectors?.ready()) p.dense = DenseIndex.of(p.bm25f.entries, this.vectors);
    return p.dense;
  }

  /** resolve() with the query's sentence vector computed first (lexical while the model is not ready). */
  async resolveAsync(query: string | undefined, limit?: number, agent?: string): Promise<Resolved> {
    return this.resolve(query, limit, agent, await this.queryVector(query));
  }

  /** search() with the query's sentence vector computed first. */
  async searchAsync(
    query: string | undefined,
    limit: number | undefined,
    isPromoted: (e: ToolEntry) => boolean,
    agent?: string,
  ): Promise<SearchAnswer> {
    return this.search(query, limit, isPromoted, agent, await this.queryVector(query));
  }

  /** Learned words as `agent` sees them, as a ranking field of this index (undefined when learning is off). */
  private boostFor(p: Prepared, agent: string | undefined): TermBoost | undefined {
    const l = this.learning;
    if (!l || !l.enabled) return undefined;
    const key = agent ?? '';
    const hit = p.boosts.get(key);
    if (hit && hit.revision === l.revision) return hit.boost;
    const terms = l.terms(agent);
    const mapped = new Map<string, Map<number, number> | null>();
    const boost: TermBoost = (term) => {
      let m = mapped.get(term);
      if (m === undefined) {
        const tools = terms.get(term);
        m = null;
        if (tools) {
          m = new Map();
          for (const [name, w] of tools) {
            const doc = p.bm25f.docOf(name);
            if (doc >= 0) m.set(doc, w);
          }
        }
        mapped.set(term, m);
      }
      return m ?? undefined;
    };
    p.boosts.set(key, { revision: l.revision, boost });
    return boost;
  }

  /** Builds the index for the current toolbox now rather than on the first search. */
  warm(): void {
    this.prepare(this.toolbox());
  }

  /**
   * Builds the index for the current toolbox off the request path, in slices of about `sliceMs` with
   * the event loop free between them (calls keep flowing while 5,000 tools are indexed). A search that
   * comes first finishes the build itself; a newer toolbox meanwhile leaves this one unfinished.
   */
  async warmInSlices(sliceMs = WARM_SLICE_MS, now: () => number = () => performance.now()): Promise<void> {
    const tb = this.toolbox();
    const p = this.prepare(tb, true);
    const run = (async () => {
      while (!p.bm25f.buildFor(sliceMs, now) || !p.names.buildFor(sliceMs, now)) {
        await nextTurn();
        if (this.toolbox() !== tb) return;
      }
    })();
    this.building = { toolbox: tb, done: run };
    try {
      await run;
    } finally {
      if (this.building?.done === run) this.building = undefined;
    }
  }

  /**
   * Resolves once a build in slices under way for the current toolbox is done. A search that waits
   * for it keeps the event loop free; finishing the build at once would hold it for every agent on a
   * large toolbox. Resolves at once when no build is under way.
   */
  async whenBuilt(): Promise<void> {
    for (let b = this.building; b && b.toolbox === this.toolbox(); b = this.building) await b.done.catch(() => {});
  }

  /** Whether the index of the current toolbox is being built in slices now. */
  private buildingNow(): boolean {
    return this.building !== undefined && this.building.toolbox === this.toolbox();
  }

  /** Names close to `name`: for "did you mean" answers when a name is not in the toolbox. */
  closeNames(rawName: string, limit: number): string[] {
    // While the index is built in slices, an unknown name gets no suggestions rather than finishing
    // the build on the event loop (the answer still says to use search_tools, which waits for it).
    if (this.buildingNow()) return [];
    const p = this.prepare(this.toolbox());
    // A name of any length costs the same bounded work (trigrams and fuse.js scale with its length).
    const name = rawName.slice(0, MAX_NAME_CHARS);
    const ranked = p.index.search(name, limit).map((h) => h.entry.name);
    const near = p.names.find(name, limit);
    return [...new Set([...near, ...ranked])].slice(0, limit);
  }

  /** What a query asks for and the tools that answer it, best first. */
  resolve(query: string | undefined, limit?: number, agent?: string, qv?: Float32Array): Resolved {
    const tb = this.toolbox();
    const p = this.prepare(tb);
    const k = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit ?? DEFAULT_SEARCH_LIMIT)));
    const capped = capQuery((query ?? '').trim());
    const q = capped.query;
    if (!q) return { kind: 'overview', query: q, entries: [] };
    const boost = this.boostFor(p, agent);
    const remembered = this.rememberedFor(p, q, agent);
    const earlier = this.earlierFor(p, q, agent, qv);
    if (capped.cut) return { ...this.rank(p, q, k, boost, remembered, qv, earlier), cut: true };
    return this.rank(p, q, k, boost, remembered, qv, earlier);
  }

  /** The tools this request led `agent` to before, as entries of this index (undefined: none, or learning off). */
  private rememberedFor(p: Prepared, q: string, agent: string | undefined): Map<ToolEntry, number> | undefined {
    const l = this.learning;
    const recalled = l?.enabled ? l.recall(q, agent) : undefined;
    if (!recalled) return undefined;
    const out = new Map<ToolEntry, number>();
    for (const [name, trust] of recalled) {
      const doc = p.bm25f.docOf(name);
      if (doc >= 0) out.set(p.bm25f.entries[doc]!, trust);
    }
    return out.size ? out : undefined;
  }

  /** Per tool of this index, the cosine of the nearest earlier request that led there (text mode). */
  private earlierFor(p: Prepared, q: string, agent: string | undefined, qv: Float32Array | undefined): Earlier | undefined {
    const found = this.earlierRequests(q, agent, qv);
    if (!found) return undefined;
    const out = new Map<number, number>();
    for (const [name, m] of found) {
      const doc = p.bm25f.docOf(name);
      if (doc >= 0) out.set(doc, m.cosine);
    }
    return out.size ? out : undefined;
  }

  private earlierRequests(q: string, agent: string | undefined, qv: Float32Array | undefined) {
    const l = this.learning;
    const model = qv && this.vectors?.model?.();
    return model && l ? l.earlierRequests({ v: qv!, model }, q, agent) : undefined;
  }

  /** The ranked hits for a query with, per hit, which query word matched which field. */
  explain(query: string, limit?: number, agent?: string, qv?: Float32Array): Explained[] {
    const p = this.prepare(this.toolbox());
    const k = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit ?? DEFAULT_SEARCH_LIMIT)));
    const q = capQuery(query.trim()).query;
    const boost = this.boostFor(p, agent);
    const remembered = this.rememberedFor(p, q, agent);
    const recalled = this.learning?.enabled ? this.learning.recall(q, agent) : undefined;
    const like = this.earlierRequests(q, agent, qv);
    const earlier = this.earlierFor(p, q, agent, qv);
    const hits = this.searchRecalled(p, q, k, undefined, boost, remembered, qv, earlier).slice(0, k);
    return explainHits(p.bm25f, q, hits, boost).map((h, i) => {
      const hit = hits[i]!;
      const matches = [...h.matches];
      const dense = qv && this.denseOf(p);
      if (dense)
        matches.push({
          word: q,
          via: `meaning (cosine ${dense.sim(p.bm25f.docOf(hit.entry.name), qv!).toFixed(2)})`,
          fields: ['sentence model'],
        });
      if (recalled?.has(hit.entry.name)) matches.push({ word: q, via: 'the same request', fields: ['learned words'] });
      const before = like?.get(hit.entry.name);
      // Said only where the earlier request is nearer than the tool's own text (else it changed nothing).
      const own = dense ? dense.sim(p.bm25f.docOf(hit.entry.name), qv!) : -1;
      if (before && before.cosine > own)
        matches.push({
          word: q,
          via: `like an earlier request: "${before.query}" (cosine ${before.cosine.toFixed(2)})`,
          fields: ['learned requests'],
        });
      return { ...h, score: Math.round(hit.score * 1000) / 1000, matches };
    });
  }

  /**
   * The best `n` hits with remembered tools moved up (withRecall). A remembered tool is scored on its
   * own words too, wherever it ranks: otherwise whether it came first would depend on `n`.
   */
  private searchRecalled(
    p: Prepared,
    q: string,
    n: number,
    within: ((e: ToolEntry) => boolean) | undefined,
    boost: TermBoost | undefined,
    remembered: Map<ToolEntry, number> | undefined,
    qv?: Float32Array,
    earlier?: Earlier,
  ) {
    const hits = p.index.search(q, n, within, boost, qv, earlier);
    if (!remembered) return hits;
    const seen = new Set(hits.map((h) => h.entry));
    const own = p.index.search(q, remembered.size, (e) => remembered.has(e) && !seen.has(e) && (!within || within(e)), boost, qv, earlier);
    return withRecall([...hits, ...own], remembered);
  }

  private rank(
    p: Prepared,
    q: string,
    k: number,
    boost: TermBoost | undefined,
    remembered?: Map<ToolEntry, number>,
    qv?: Float32Array,
    earlier?: Earlier,
  ): Resolved {
    const exact = p.byLowerName.get(q.toLowerCase());
    if (exact) return { kind: 'exact', query: q, entries: [exact] };
    const words = q.toLowerCase().split(/\s+/);
    const backendName = words[0]!.replace(/[^a-z0-9-]/g, '');
    const backend = p.backends.get(backendName);
    if (backend) {
      const rest = words.slice(1).join(' ');
      const members = new Set(backend);
      const mine = remembered && new Map([...remembered].filter(([e]) => members.has(e)));
      // The vector is the whole query's ("github" included): still the best measure of the rest's meaning among one backend's tools.
      const ranked = rest
        ? this.searchRecalled(p, rest, k, (e) => members.has(e), boost, mine?.size ? mine : undefined, qv, earlier)
            .slice(0, k)
            .map((h) => h.entry)
        : [];
      return {
        kind: 'backend',
        query: q,
        backend: backendName,
        total: backend.length,
        entries: ranked.length ? ranked : backend.slice(0, k),
      };
    }
    // "Find the invoice and email it to Ana": the best tool for each task goes first, then the rest.
    const parts = splitTasks(q);
    // One ranking of the whole query serves both the hits and the tasks' pool (bounded work).
    const whole = this.searchRecalled(p, q, parts ? Math.max(k, TASK_POOL) : k, undefined, boost, remembered, qv, earlier);
    const hits = whole.slice(0, k).map((h) => h.entry);
    if (!hits.length) return { kind: 'none', query: q, entries: [] };
    if (parts) {
      // Each task is ranked among the tools the whole query finds, so each keeps the other's context
      // ("find the invoice" next to "email it" means the mail search, not a code search).
      const wholeTop = whole[0]?.score || 1;
      const prior = new Map(whole.slice(0, TASK_POOL).map((h) => [h.entry, h.score / wholeTop]));
      const tasks = parts.flatMap((task) => {
        const ranked = p.index.search(task, TASK_POOL, (e) => prior.has(e), boost);
        const taskTop = ranked[0]?.score || 1;
        let best: ToolEntry | undefined;
        let bestScore = -1;
        for (const h of ranked) {
          const s = h.score / taskTop + TASK_CONTEXT_WEIGHT * (prior.get(h.entry) ?? 0);
          if (s > bestScore) [best, bestScore] = [h.entry, s];
        }
        best ??= p.index.search(task, 1, undefined, boost)[0]?.entry;
        return best ? [{ task, entry: best }] : [];
      });
      const distinct = new Set(tasks.map((t) => t.entry));
      if (distinct.size >= 2) {
        const entries = [...new Set([...tasks.map((t) => t.entry), ...hits])].slice(0, Math.max(k, distinct.size));
        return { kind: 'ranked', query: q, entries, tasks: tasks.map((t) => ({ task: t.task, tool: t.entry.name })) };
      }
    }
    return { kind: 'ranked', query: q, entries: hits };
  }

  search(
    query: string | undefined,
    limit: number | undefined,
    isPromoted: (e: ToolEntry) => boolean,
    agent?: string,
    qv?: Float32Array,
  ): SearchAnswer {
    const r = this.resolve(query, limit, agent, qv);
    switch (r.kind) {
      case 'overview':
        return overview(this.toolbox(), isPromoted);
      case 'exact': {
        const e = r.entries[0]!;
        const view = { ...hitView(e, isPromoted(e), true), ...(e.tool.outputSchema ? { outputSchema: e.tool.outputSchema } : {}) };
        return { text: JSON.stringify({ tool: view }), results: 1, kind: 'exact', names: [e.name] };
      }
      case 'none': {
        const near = this.prepare(this.toolbox()).names.find(r.query, 3);
        const message = `No tool matches "${r.query}".${near.length ? ` Close names: ${near.join(', ')}.` : ''} Try other words, a backend name, or no query for the whole catalog.`;
        return {
          text: JSON.stringify({ query: r.query, results: [], message, ...(r.cut ? { note: QUERY_CUT_NOTE } : {}) }),
          results: 0,
          kind: 'none',
          names: [],
        };
      }
      case 'backend':
      case 'ranked': {
        const head = {
          ...(r.kind === 'backend' ? { backend: r.backend, total: r.total } : { query: r.query }),
          ...(r.tasks ? { tasks: r.tasks, note: `This query names ${r.tasks.length} tasks; the best tool for each comes first.` } : {}),
          ...(r.cut ? { note: QUERY_CUT_NOTE } : {}),
        };
        const { reply, shown } = budgetedReply(head, r.entries, isPromoted);
        return { text: JSON.stringify(reply), results: shown, kind: r.kind, names: r.entries.slice(0, shown).map((e) => e.name) };
      }
    }
  }

  private prepare(tb: Toolbox, deferred = false): Prepared {
    let p = this.prepared.get(tb);
    if (p) return p;
    const entries = [...tb.all()];
    const byLowerName = new Map<string, ToolEntry>();
    for (const e of entries) byLowerName.set(e.name.toLowerCase(), e);
    const backends = backendsOf(entries, tb.prefixNames);
    // Exact names also work without the vendor or backend prefix, when that leaves them unique.
    const short = new Map<string, ToolEntry[]>();
    for (const e of entries) {
      const forms = [e.remoteName.toLowerCase()];
      const w = splitWords(e.remoteName)[0];
      if (w && backends.has(w)) forms.push(e.remoteName.toLowerCase().slice(w.length + 1));
      for (const f of forms) if (f && f !== e.name.toLowerCase()) short.set(f, [...(short.get(f) ?? []), e]);
    }
    for (const [f, list] of short) if (list.length === 1 && !byLowerName.has(f)) byLowerName.set(f, list[0]!);
    const bm25f = new SearchIndex(entries, this.aliases, [...backends.keys()], deferred && this.engine !== 'minisearch'); // hybrid ranks with BM25F too
    const vectors = () => (p ? this.denseOf(p) : undefined);
    p = {
      index: rankerFor(this.engine, bm25f, entries, vectors, () => this.vectors?.lexicalShare?.()),
      bm25f,
      boosts: new LRUCache({ max: 256 }),
      backends,
      byLowerName,
      names: new NearNames(entries.map((e) => e.name)),
    };
    this.prepared.set(tb, p);
    return p;
  }
}
