// `mws search --explain`: which query word matched which field of each hit, read from the index's
// plan of the query and its postings.
import { splitWords, stem } from './text.js';
import { capQuery } from './limits.js';
import { learnedKnows, type Hit, type SearchIndex, type TermBoost } from './index.js';

/** Field names, in index order (SearchIndex.fieldsOf's bits). */
export const FIELD_NAMES = ['name', 'title', 'parameter names', 'parameter descriptions', 'description', 'backend'] as const;
export type Explained = { tool: string; score: number; matches: Array<{ word: string; via: string; fields: string[] }> };

export function explainHits(index: SearchIndex, query: string, hits: Hit[], boost?: TermBoost): Explained[] {
  const groups = index.plan(query, learnedKnows(boost));
  // Words as the query wrote them ("buy", not its stem "bui"); a typo correction or synonym keeps its term.
  const surface = new Map<string, string>();
  for (const w of splitWords(capQuery(query).query, false)) if (!surface.has(stem(w))) surface.set(stem(w), w);
  return hits.map((h) => {
    const doc = index.docOf(h.entry.name);
    const matches: Explained['matches'] = [];
    for (const alts of groups) {
      for (const a of alts) {
        const bits = index.fieldsOf(a.term, doc);
        const fields: string[] = FIELD_NAMES.filter((_, f) => bits & (1 << f));
        const learned = a.syn ? undefined : boost?.(a.term)?.get(doc);
        if (learned) fields.push('learned words');
        if (fields.length)
          matches.push({
            word: (!a.syn && a.weight === 1 && surface.get(a.term)) || a.term,
            via: a.syn ? 'synonym' : a.weight < 1 ? 'typo correction' : 'word',
            fields: [...fields],
          });
      }
    }
    return { tool: h.entry.name, score: Math.round(h.score * 1000) / 1000, matches };
  });
}
