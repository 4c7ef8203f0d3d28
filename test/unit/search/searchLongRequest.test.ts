// A long request is mostly words no tool uses (the situation, a greeting, a person's name, thanks):
// the bound on scored words must spend its places on the words that can match a tool, so a request
// of 30 words finds the tool its few catalog words name, as a short one does.
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { verbNounCatalog } from '../../../bench/verbNounCatalog.js';
import { MAX_SCORED_WORDS } from '../../../src-main/core/search/limits.js';

const own: Tool[] = [
  { name: 'cancel_cruise_booking', description: 'Cancel a cruise booking and report the refund.', inputSchema: { type: 'object' } },
  { name: 'list_cruise_ports', description: 'List the ports a cruise calls at.', inputSchema: { type: 'object' } },
];
// A catalog's worth of other tools, so that word statistics are those of a large catalog.
const filler = verbNounCatalog(1200).tools.filter((t) => !/cruise|cancel|refund|booking/i.test(t.name + (t.description ?? '')));
const service = () => {
  const box = new Toolbox(new Map([['catalog', [...filler, ...own]]]), false);
  return new SearchService(() => box, {}, 'bm25f');
};
const top = (s: SearchService, q: string) => s.resolve(q, 5).entries.map((e) => e.name);

// Fifteen English words that no tool here uses, around the three that name the tool.
const situation =
  'Good morning. My grandmother was really looking forward to our Mediterranean holiday with cousins but sadly her knee surgery moved.';
const request = `${situation} Please cancel the cruise booking for us. Thanks heaps.`;

describe('long requests', () => {
  it('the words no tool uses do not take the places of the words that name a tool', () => {
    const s = service();
    expect(top(s, 'cancel the cruise booking')[0]).toBe('cancel_cruise_booking');
    // More unknown words than places to score: the tool is found as from the short request.
    const unknown = situation.split(/\W+/).filter((w) => w.length > 2 && !/^(the|our|was|her|but|with)$/i.test(w));
    expect(unknown.length).toBeGreaterThan(MAX_SCORED_WORDS);
    expect(top(s, request)[0]).toBe('cancel_cruise_booking');
  });
});
