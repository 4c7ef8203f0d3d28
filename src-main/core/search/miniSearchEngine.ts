// The same search on MiniSearch (BM25 with field boosts, fuzzy and prefix matching), fed the same
// query plan (synonyms, phrases, typo corrections) so that the comparison is of the ranking alone.
// Kept so the two can be measured side by side on any gold set: `mws eval --engine minisearch`.
import MiniSearch from 'minisearch';
import type { ToolEntry } from '../toolbox/toolbox.js';
import { isStopWord, splitWords, stem } from './text.js';
import { DESCRIPTION_CHARS, type SearchIndex } from './index.js';

type Doc = { id: number; name: string; title: string; params: string; desc: string };

export class MiniSearchEngine {
  private readonly mini: MiniSearch<Doc>;
  constructor(
    private readonly entries: ToolEntry[],
    private readonly planner: SearchIndex,
  ) {
    this.mini = new MiniSearch<Doc>({
      fields: ['name', 'title', 'params', 'desc'],
      tokenize: (text) => splitWords(text),
      processTerm: (t) => (isStopWord(t) ? null : stem(t)),
      searchOptions: { boost: { name: 3, title: 1.2, params: 1, desc: 0.9 }, fuzzy: 0.2, prefix: true, combineWith: 'OR' },
    });
    this.mini.addAll(
      entries.map((e, id) => {
        const props = Object.keys((e.tool.inputSchema as { properties?: object }).properties ?? {});
        return {
          id,
          name: e.remoteName,
          title: e.tool.title ?? '',
          params: props.join(' '),
          desc: (e.tool.description ?? '').slice(0, DESCRIPTION_CHARS),
        };
      }),
    );
  }

  /** Same shape as SearchIndex.search, so either can serve search_tools. */
  rank(query: string, limit: number, within?: (e: ToolEntry) => boolean): Array<{ entry: ToolEntry; score: number }> {
    const wide = within ? this.search(query, this.entries.length) : this.search(query, limit);
    return wide
      .filter((e) => !within || within(e))
      .slice(0, limit)
      .map((entry, i) => ({ entry, score: -i }));
  }

  search(query: string, limit: number): ToolEntry[] {
    const weights = new Map<string, number>();
    for (const group of this.planner.plan(query)) for (const a of group) weights.set(a.term, Math.max(weights.get(a.term) ?? 0, a.weight));
    if (weights.size === 0) return [];
    return this.mini
      .search([...weights.keys()].join(' '), { processTerm: (t) => t, boostTerm: (t) => weights.get(t) ?? 1 })
      .slice(0, limit)
      .map((r) => this.entries[r.id as number]!);
  }
}
