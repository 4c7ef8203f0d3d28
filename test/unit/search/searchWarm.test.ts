// The search index for a new toolbox is built off the request path in slices: an upstream
// change at 5,000 tools held every call for the whole build (0.3–1.2 s) when the index was built at
// once. Time comes from an injected clock; the index built in slices answers as the one built at once.
import { describe, expect, it } from 'vitest';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { SearchIndex } from '../../../src-main/core/search/index.js';
import { generateCatalog } from '../../../bench/genCatalog.js';

const box = new Toolbox(new Map([['catalog', generateCatalog(2000).tools]]), false);
const QUERIES = ['create an invoice', 'list github issues', 'send a slack message', 'delete a file', 'calender event'];
/** A clock that moves 1 ms each time it is read: a slice of `ms` is `ms` readings. */
const ticking = () => {
  let t = 0;
  return () => t++;
};
const names = (s: SearchService, q: string) => s.search(q, 10, () => false).names;

describe('the search index built in slices', () => {
  it('is built over many short slices and answers exactly as the index built at once', () => {
    const whole = new SearchIndex(box.all());
    const sliced = new SearchIndex(box.all(), {}, [], true);
    const now = ticking();
    let slices = 1;
    while (!sliced.buildFor(4, now)) slices++;
    expect(slices).toBeGreaterThan(20);
    for (const q of QUERIES)
      expect(sliced.search(q, 10).map((h) => [h.entry.name, h.score])).toEqual(whole.search(q, 10).map((h) => [h.entry.name, h.score]));
  });

  it('finishes itself when a query comes before the slices are done', () => {
    const whole = new SearchIndex(box.all());
    const sliced = new SearchIndex(box.all(), {}, [], true);
    expect(sliced.buildFor(2, ticking())).toBe(false);
    expect(sliced.search('create an invoice', 5)).toEqual(whole.search('create an invoice', 5));
    expect(sliced.buildFor(2, ticking())).toBe(true);
  });

  it('leaves the event loop free between slices while a service warms, and then answers as before', async () => {
    const eager = new SearchService(() => box);
    const warming = new SearchService(() => box);
    let turns = 0;
    let done = false;
    const counting = () => {
      if (done) return;
      turns++;
      setImmediate(counting);
    };
    setImmediate(counting);
    await warming.warmInSlices(4, ticking());
    done = true;
    // Other work ran between the slices (an index built at once lets none run until it is done).
    expect(turns).toBeGreaterThan(20);
    for (const q of QUERIES) expect(names(warming, q)).toEqual(names(eager, q));
    // Close names (for an unknown tool) were indexed in the same slices, and answer as before.
    const probe = [...box.all()][7]!.name.slice(0, -2) + 'zz';
    expect(warming.closeNames(probe, 3)).toEqual(eager.closeNames(probe, 3));
    expect(warming.closeNames(probe, 3).length).toBeGreaterThan(0);
  });

  it('warms in slices for the hybrid engine the app ships too (it ranks with BM25F)', async () => {
    const warming = new SearchService(() => box, {}, 'hybrid');
    let turns = 0;
    let done = false;
    const counting = () => {
      if (done) return;
      turns++;
      setImmediate(counting);
    };
    setImmediate(counting);
    await warming.warmInSlices(4, ticking());
    done = true;
    expect(turns).toBeGreaterThan(20);
    expect(names(warming, 'create an invoice')).toEqual(names(new SearchService(() => box), 'create an invoice'));
  });

  it('stops warming a toolbox that was replaced meanwhile', async () => {
    let current = box;
    const s = new SearchService(() => current);
    const now = ticking();
    const warm = s.warmInSlices(4, now);
    current = new Toolbox(new Map([['catalog', generateCatalog(10).tools]]), false);
    await warm;
    expect(names(s, 'create an invoice').length).toBeGreaterThan(0);
  });
});
