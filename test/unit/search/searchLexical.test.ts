// The lexical rules: a synonym or typo correction of one query word never outweighs another
// query word matched exactly, and quoted strings, ids and paths are a request's arguments, not words
// that name a tool.
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { verbNounCatalog } from '../../../bench/verbNounCatalog.js';

const tool = (name: string, description: string, props: Record<string, string> = {}): Tool => ({
  name,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])),
  },
});
const own = [
  tool('getPhilosophy', 'Retrieve information about philosophy', { topic: 'The philosophy topic' }),
  tool('sendCommunityNewsletter', 'Send a community newsletter to subscribers', {
    subject: 'The subject of the newsletter',
    content: 'The newsletter text',
    recipients: 'Who gets it',
  }),
  tool('getLegalCaseInfo', 'Get information about a legal case', { caseNumber: 'The case number' }),
  tool('getBookInfo', 'Get information about a book', { title: 'The title of the book' }),
  tool('getAnimalFact', 'Get a fact about an animal', { animal: 'The animal' }),
];
// Other tools, so that word statistics are those of a catalog (none shares the tools' own nouns).
const filler = verbNounCatalog(1200).tools.filter((t) => !/book|legal|case|philosoph|animal|info/i.test(t.name));
const service = () => {
  const box = new Toolbox(new Map([['catalog', [...filler, ...own]]]), false);
  return new SearchService(() => box);
};
const top = (s: SearchService, q: string, k = 5) => s.resolve(q, k).entries.map((e) => e.name);

describe('lexical rules', () => {
  it('a synonym of one word does not outrank an exact match of another: philosophy beats tell→send + subject', () => {
    const s = service();
    expect(top(s, 'Tell me about the philosophy subject.')[0]).toBe('getPhilosophy');
  });

  it('a quoted title is an argument: the words that name the tool decide', () => {
    const s = service();
    expect(top(s, 'information about the book "The Curious Case of the Talking Animals"')[0]).toBe('getBookInfo');
    expect(top(s, "information about the book 'The Curious Case of the Talking Animals'")[0]).toBe('getBookInfo');
    expect(top(s, 'information about the book “The Curious Case of the Talking Animals”')[0]).toBe('getBookInfo');
  });

  it('a query that is only a quoted string is still searched', () => {
    const s = service();
    expect(top(s, '"legal case"')[0]).toBe('getLegalCaseInfo');
  });

  it('an unclosed quote is read as words (the query is not lost)', () => {
    const s = service();
    expect(top(s, 'legal case "unfinished')[0]).toBe('getLegalCaseInfo');
  });

  it('ids and numbers are arguments too', () => {
    const s = service();
    expect(top(s, 'book info for 4411 A-20931')[0]).toBe('getBookInfo');
  });
});
