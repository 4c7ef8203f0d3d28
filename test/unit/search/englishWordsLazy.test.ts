// Memory after start: the English word list (~5 MB kept) is read by the first query word
// that needs a typo correction, not when the search index is built. Its own file: the list is module
// state, and another test in the same file could have read it already.
import { describe, expect, it } from 'vitest';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { DEMO_TOOLS } from '../../../src-main/core/demo/tools.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { englishWordsLoaded } from '../../../src-main/core/search/englishWords.js';

describe('the English word list loads on first need', () => {
  it('is not read by building the index nor by a query of known words, and is read by a misspelt one', () => {
    const box = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);
    const search = new SearchService(() => box);
    search.warm();
    const known = search.search('create calendar', undefined, () => false);
    expect(known.names.length).toBeGreaterThan(0);
    expect(englishWordsLoaded()).toBe(false);
    const misspelt = search.search('create calender', undefined, () => false);
    expect(englishWordsLoaded()).toBe(true);
    // The correction still works once the list is in.
    expect(misspelt.names[0]).toMatch(/^calendar_/);
  });
});
