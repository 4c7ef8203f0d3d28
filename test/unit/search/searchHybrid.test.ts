// Hybrid ranking (BM25F fused with sentence vectors) against a twin of the model: vectors from a small
// table of meanings, so a query can share no word with its tool and still be near it. Checks that the
// fusion lifts such a tool, that exact names keep their fast path, and that without vectors (model not
// ready, failed, or failing on a query) the reply is exactly the lexical one.
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox, type ToolEntry } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import type { SemanticVectors } from '../../../src-main/core/search/denseIndex.js';
import { fuse } from '../../../src-main/core/search/fusion.js';
import { splitWords } from '../../../src-main/core/search/text.js';

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object', properties: {} } });
const tools = [
  tool('get-sum', 'Returns the total of two numbers'),
  tool('add-comment', 'Adds a comment to an issue'),
  tool('add-label', 'Adds a label to an issue'),
  tool('list-issues', 'Lists the issues of a repository'),
  tool('send-mail', 'Sends an email message'),
];
/** The twin's "meanings": words that mean the same land on one axis. */
const MEANING: Record<string, number> = {
  sum: 0,
  total: 0,
  add: 0,
  plus: 0,
  numbers: 0,
  comment: 1,
  note: 1,
  label: 2,
  tag: 2,
  issue: 3,
  issues: 3,
  ticket: 3,
  mail: 4,
  email: 4,
  message: 4,
};
const DIM = 6;
function vec(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const w of splitWords(text)) v[MEANING[w] ?? 5]! += w in MEANING ? 1 : 0.05;
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}
class TwinVectors implements SemanticVectors {
  activated = 0;
  constructor(
    private isReady = true,
    private readonly failQuery = false,
  ) {}
  ready() {
    return this.isReady;
  }
  activate() {
    this.activated++;
  }
  vector(e: ToolEntry) {
    return this.isReady ? vec(`${e.remoteName} ${e.tool.description}`) : undefined;
  }
  async embedQuery(text: string) {
    if (this.failQuery) return undefined;
    return vec(text);
  }
}
const box = new Toolbox(new Map([['catalog', tools]]), false);
const svc = (engine: 'hybrid' | 'dense' | 'bm25f', v?: SemanticVectors) => new SearchService(() => box, {}, engine, undefined, v);
const names = async (s: SearchService, q: string) => (await s.resolveAsync(q, 5)).entries.map((e) => e.name);

describe('hybrid search', () => {
  it('meaning lifts a tool the words rank lower ("add up these numbers" → get-sum, not add-comment)', async () => {
    expect((await names(svc('bm25f'), 'add up these numbers'))[0]).not.toBe('get-sum');
    expect((await names(svc('hybrid', new TwinVectors()), 'add up these numbers'))[0]).toBe('get-sum');
  });

  it("fuses with the model's own lexical share when its manifest names one (1: the words alone decide)", async () => {
    const wordsOnly = Object.assign(new TwinVectors(), { lexicalShare: () => 1 });
    const lexical = await names(svc('bm25f'), 'add up these numbers');
    expect((await names(svc('hybrid', wordsOnly), 'add up these numbers'))[0]).toBe(lexical[0]);
    const meaningOnly = Object.assign(new TwinVectors(), { lexicalShare: () => 0 });
    expect((await names(svc('hybrid', meaningOnly), 'add up these numbers'))[0]).toBe('get-sum');
  });

  it('dense alone ranks by meaning only ("add 17 and 25" → get-sum)', async () => {
    expect((await names(svc('dense', new TwinVectors()), 'add 17 and 25'))[0]).toBe('get-sum');
  });

  it('words still count: a query both rankings agree on keeps its tool first', async () => {
    expect((await names(svc('hybrid', new TwinVectors()), 'add a label to the ticket'))[0]).toBe('add-label');
  });

  it('an exact tool name keeps its fast path', async () => {
    const r = await svc('hybrid', new TwinVectors()).resolveAsync('send-mail', 5);
    expect(r.kind).toBe('exact');
  });

  it('until the vectors are ready the reply is the lexical one, and search asks for them', async () => {
    const waiting = new TwinVectors(false);
    const s = svc('hybrid', waiting);
    for (const q of ['add 17 and 25', 'tag the ticket', 'mail']) {
      const a = await s.searchAsync(q, 5, () => false);
      const b = svc('bm25f').search(q, 5, () => false);
      expect(a).toEqual(b);
    }
    expect(waiting.activated).toBeGreaterThan(0);
  });

  it('a query the model cannot read is answered lexically, in the same shape', async () => {
    const s = svc('hybrid', new TwinVectors(true, true));
    expect(await s.searchAsync('add 17 and 25', 5, () => false)).toEqual(svc('bm25f').search('add 17 and 25', 5, () => false));
  });

  it('without a model at all (none given) hybrid is BM25F', async () => {
    expect(await svc('hybrid').searchAsync('add 17 and 25', 5, () => false)).toEqual(svc('bm25f').search('add 17 and 25', 5, () => false));
  });

  it('--explain shows the similarity in meaning', async () => {
    const s = svc('hybrid', new TwinVectors());
    const qv = await s.queryVector('add up these numbers');
    const ex = s.explain('add up these numbers', 3, undefined, qv);
    expect(ex[0]!.tool).toBe('get-sum');
    expect(ex[0]!.matches.some((m) => m.fields.includes('sentence model') && /cosine [01]\.\d\d/.test(m.via))).toBe(true);
  });
});

describe('fusion rule', () => {
  it('linear: each list is scaled to its query; a tool in only one list still ranks', () => {
    const sims = new Map([
      [1, 0.9],
      [2, 0.5],
      [3, 0.2],
    ]);
    const out = fuse(
      [
        { doc: 2, score: 10 },
        { doc: 3, score: 5 },
      ],
      [
        { doc: 1, score: 0.9 },
        { doc: 2, score: 0.5 },
        { doc: 3, score: 0.2 },
      ],
      (d) => sims.get(d) ?? 0,
      { kind: 'linear', lexicalShare: 0.6 },
      3,
    );
    expect(out.map((h) => h.doc)).toEqual([2, 1, 3]);
    expect(out[0]!.score).toBeCloseTo(0.6 + 0.4 * (0.3 / 0.7));
  });

  it('rrf: ranks, not scores, are mixed', () => {
    const out = fuse(
      [
        { doc: 1, score: 100 },
        { doc: 2, score: 1 },
      ],
      [
        { doc: 2, score: 0.9 },
        { doc: 1, score: 0.1 },
      ],
      () => 0,
      { kind: 'rrf', k: 60, lexicalShare: 0.5 },
      2,
    );
    expect(out[0]!.score).toBeCloseTo(out[1]!.score);
  });

  it('empty lists give nothing, not NaN', () => {
    expect(fuse([], [], () => 0, { kind: 'linear', lexicalShare: 0.6 }, 5)).toEqual([]);
  });
});
