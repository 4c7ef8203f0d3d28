// the ranking rules that must hold on any catalog, not only on the evaluation sets.
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { SearchIndex } from '../../../src-main/core/search/index.js';

const tool = (name: string, description: string, properties: Record<string, { type: string; description?: string }> = {}): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties },
});
const indexOf = (tools: Tool[]) => new SearchIndex([...new Toolbox(new Map([['up', tools]]), false).all()]);
const names = (ix: SearchIndex, q: string) => ix.search(q, 5).map((h) => h.entry.name);

describe('ranking rules', () => {
  it('a synonym adds evidence but never outranks the word itself', () => {
    const ix = indexOf([tool('remove_file', 'Removes a file from the disk'), tool('delete_file', 'Deletes a file from the disk')]);
    expect(names(ix, 'remove the file')[0]).toBe('remove_file');
    expect(names(ix, 'delete the file')[0]).toBe('delete_file');
    expect(names(ix, 'erase the file')).toHaveLength(2); // neither word is in the catalog: both by synonym
  });

  it('typo-corrects only words that are not English words', () => {
    const ix = indexOf([tool('read_file', 'Read a file'), tool('list_events', 'List events in the calendar')]);
    expect(ix.plan('bread yeast').map((g) => g.map((a) => a.term))).toEqual([['bread'], ['yeast']]);
    expect(names(ix, 'bread yeast')).toEqual([]);
    expect(names(ix, 'raed the fiel')[0]).toBe('read_file');
  });

  it('counts a word however many times a field holds it (past 65,535: the build keeps its counts in 16 bits until one needs more)', () => {
    // One tool a toolbox: its field is as long as the average, so only the count moves its score.
    const score = (times: number) => {
      const schema = { type: 'object', properties: { mode: { type: 'string', enum: Array<string>(times).fill('zeta') } } };
      const ix = new SearchIndex([
        ...new Toolbox(new Map([['up', [{ name: 'pick', description: 'Picks', inputSchema: schema } as Tool]]]), false).all(),
      ]);
      return ix.search('zeta', 1)[0]?.score ?? 0;
    };
    expect(score(70_000)).toBeGreaterThan(score(65_535));
  });

  it('counts a repeated query word once', () => {
    const ix = indexOf([tool('read_file', 'Read a file'), tool('send_message', 'Send a message to a file share channel')]);
    const once = ix.search('file message', 2);
    const repeated = ix.search('file file file file message', 2);
    expect(repeated.map((h) => [h.entry.name, h.score])).toEqual(once.map((h) => [h.entry.name, h.score]));
  });

  it('splits a camelCase name typed into the query as the tool name is split, and keeps short letter-digit acronyms whole', () => {
    const ix = indexOf([
      tool('readTextFile', 'Returns the text'),
      tool('read_media', 'Returns an image'),
      tool('b2b_invoices', 'Invoices between companies'),
      tool('b_invoices', 'Invoices'),
    ]);
    expect(names(ix, 'readTextFile')[0]).toBe('readTextFile');
    expect(ix.plan('B2B invoices')[0]!.map((a) => a.term)).toEqual(['b2b']);
    expect(names(ix, 'B2B invoices')[0]).toBe('b2b_invoices');
  });

  it('indexes parameter descriptions in full, however long', () => {
    const long = `${'The identifier of the record to act on, as returned by the listing. '.repeat(12)}Also accepts a zeppelin registration mark.`;
    expect(long.length).toBeGreaterThan(800);
    const ix = indexOf([
      tool('get_record', 'Gets a record', { id: { type: 'string', description: long } }),
      tool('list_records', 'Lists records'),
    ]);
    expect(names(ix, 'zeppelin registration')[0]).toBe('get_record');
  });

  it('ranks the tools of a backend the query names above a better wording match in another backend', () => {
    const ix = new SearchIndex(
      [
        ...new Toolbox(
          new Map([
            ['github', [tool('create_repository', 'Create a new repository in your account', { name: { type: 'string' } })]],
            [
              'gitlab',
              [
                tool('create_repository', 'Create a new repository for a side project'),
                tool('fork_repository', 'Fork a project'),
                tool('list_projects', 'List projects'),
              ],
            ],
          ]),
          true,
        ).all(),
      ],
      {},
      ['github', 'gitlab'],
    );
    expect(names(ix, 'make a new github repo for my side project')[0]).toBe('github__create_repository');
    expect(names(ix, 'make a new repository for my side project')[0]).toBe('gitlab__create_repository');
  });
});
