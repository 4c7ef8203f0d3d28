import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { DEMO_TOOLS } from '../../../src-main/core/demo/tools.js';
import { SearchService } from '../../../src-main/core/search/service.js';
import { evaluate, type GoldQuery } from '../../../src-main/core/search/eval/evaluate.js';
import { SEARCH_REPLY_MAX_BYTES } from '../../../src-main/core/search/reply.js';
import { editDistance, TypoIndex } from '../../../src-main/core/search/typo.js';
import { splitWords } from '../../../src-main/core/search/text.js';
import { ROOT } from '../../helpers/processes.js';
import { generateCatalog } from '../../../bench/genCatalog.js';

const demo = new Toolbox(new Map([['upstream', [...DEMO_TOOLS]]]), false);
const none = () => false;
const parse = (text: string) => JSON.parse(text) as Record<string, unknown> & { results?: Array<Record<string, unknown>> };

describe('search quality on the gold set', () => {
  it('puts the right tool first for at least 88% of queries and in the top 3 for 98%', () => {
    const gold = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/search-gold.json'), 'utf8')) as GoldQuery[];
    expect(gold.length).toBeGreaterThanOrEqual(80);
    const service = new SearchService(() => demo);
    const r = evaluate(() => (q, k) => service.resolve(q, k).entries.map((e) => e.name), gold);
    console.log(
      `search gold set: ${r.n} queries, top-1 ${(r.top1 * 100).toFixed(1)}%, top-3 ${(r.top3 * 100).toFixed(1)}%, MRR ${r.mrr.toFixed(3)}`,
    );
    expect(r.top1).toBeGreaterThanOrEqual(0.88);
    expect(r.top3).toBeGreaterThanOrEqual(0.98);
  });

  it('keeps test/fixtures/catalog.json in step with the demo toolbox (npm run gen:fixtures)', () => {
    const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/catalog.json'), 'utf8')) as { tools: Tool[] };
    expect(fixture.tools).toEqual(JSON.parse(JSON.stringify(DEMO_TOOLS)));
  });
});

describe('search_tools replies', () => {
  const service = new SearchService(() => demo);

  it('answers an exact name, with or without the backend prefix, with that tool alone and its full schema', () => {
    for (const q of ['mail_list_labels', 'list_labels', 'MAIL_LIST_LABELS']) {
      const r = parse(service.search(q, undefined, none).text) as { tool: Record<string, unknown> };
      expect(r.tool.name).toBe('mail_list_labels');
      expect(r.tool.inputSchema).toEqual(DEMO_TOOLS.find((t) => t.name === 'mail_list_labels')!.inputSchema);
    }
  });

  it('answers a backend name with its tools, and ranks inside it with more words', () => {
    const all = parse(service.search('browser', 50, none).text);
    expect(all.backend).toBe('browser');
    expect(all.results!.every((h) => String(h.name).startsWith('browser_'))).toBe(true);
    expect(all.total).toBe(16);
    const ranked = parse(service.search('drive share', undefined, none).text);
    expect(ranked.results![0]!.name).toBe('drive_share_file');
    expect(ranked.results!.every((h) => String(h.name).startsWith('drive_'))).toBe(true);
  });

  it('gives each hit its flags, and schemas for the top 3 only', () => {
    const r = parse(service.search('delete', 8, (e) => e.name === 'drive_delete_file').text);
    expect(r.results!.length).toBeGreaterThan(3);
    r.results!.forEach((h, i) => {
      expect(Object.keys(h)).toEqual(expect.arrayContaining(['name', 'promoted', 'readOnlyHint', 'destructiveHint']));
      expect('inputSchema' in h).toBe(i < 3);
    });
    const del = r.results!.find((h) => h.name === 'drive_delete_file')!;
    expect(del).toMatchObject({ promoted: true, readOnlyHint: false, destructiveHint: true });
  });

  it('lists the whole catalog grouped by backend, names only, listed tools marked, when there is no query', () => {
    const r = parse(service.search(undefined, undefined, (e) => e.name === 'mail_send_message').text) as {
      catalog: Record<string, string[]>;
      total: number;
    };
    expect(Object.keys(r.catalog)).toEqual(['mail', 'calendar', 'drive', 'browser', 'codesearch']);
    expect(r.catalog.mail).toContain('mail_send_message*');
    expect(r.catalog.mail).toContain('mail_get_message');
    expect(r.total).toBe(DEMO_TOOLS.length);
  });

  it('says so when nothing matches, naming close tools', () => {
    const r = parse(service.search('blorbmessagx', undefined, none).text);
    expect(r.results).toEqual([]);
    expect(String(r.message)).toMatch(/^No tool matches "blorbmessagx"\. Close names: .*message/);
  });

  it('tolerates typos and uses searchAliases from the config', () => {
    expect(parse(service.search('sned emial', undefined, none).text).results![0]!.name).toBe('mail_send_message');
    const withAlias = new SearchService(() => demo, { yeet: ['delete', 'file'] });
    expect(parse(withAlias.search('yeet the report', undefined, none).text).results![0]!.name).toBe('drive_delete_file');
  });

  it('handles tools with empty descriptions, no parameters and non-English text', () => {
    const odd: Tool[] = [
      { name: 'ping', inputSchema: { type: 'object' } },
      {
        name: 'nachricht_senden',
        description: 'Sendet eine Nachricht an einen Kanal.',
        inputSchema: { type: 'object', properties: { kanal: { type: 'string' } } },
      },
      { name: 'отправить_сообщение', description: 'Отправляет сообщение в канал', inputSchema: { type: 'object' } },
      { name: '送信', description: 'メッセージを送る', inputSchema: { type: 'object' } },
    ];
    const s = new SearchService(() => new Toolbox(new Map([['x', odd]]), false));
    expect(parse(s.search('ping', undefined, none).text)).toHaveProperty('tool');
    expect(parse(s.search('nachricht kanal', undefined, none).text).results![0]!.name).toBe('nachricht_senden');
    expect(parse(s.search('сообщение', undefined, none).text).results![0]!.name).toBe('отправить_сообщение');
    expect(parse(s.search('メッセージを送る', undefined, none).text).results![0]!.name).toBe('送信');
  });
});

describe('the reply budget', () => {
  const { tools } = generateCatalog(5000);
  const big = new Toolbox(new Map([['catalog', tools]]), false);
  const service = new SearchService(() => big);

  it.each(['create a customer in stripe', 'update', 'github', 'jira create', '', 'zzzz nothing here', 'list all the things'])(
    'keeps "%s" under 6 KB on a 5,000-tool catalog',
    (q) => {
      const text = service.search(q, 50, none).text;
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(SEARCH_REPLY_MAX_BYTES);
      expect(() => JSON.parse(text)).not.toThrow();
    },
  );

  it('trims descriptions, then drops schemas, then drops entries, and says how many more matched', () => {
    const r = parse(service.search('update customer', 50, none).text);
    expect(r.results!.length).toBeLessThan(50);
    expect(String(r.more)).toMatch(/more matched/);
  });
});

describe('text and typos', () => {
  it('splits snake_case, camelCase, acronyms, dots, dashes and digits', () => {
    expect(splitWords('getHTTPServer_v2.file-name')).toEqual(['get', 'http', 'server', 'v2', 'file', 'name']);
    expect(splitWords('B2B oauth2Token base64')).toEqual(['b2b', 'oauth', '2', 'token', 'base', '64']);
  });

  it('measures transpositions as one edit and finds near words', () => {
    expect(editDistance('sned', 'send', 2)).toBe(1);
    expect(editDistance('scrensh0t', 'screenshot', 2)).toBe(2);
    const t = new TypoIndex();
    ['screenshot', 'send', 'search', 'calendar'].forEach((w) => t.add(w));
    expect(t.correct('scrensh0t')).toEqual(['screenshot']);
    expect(t.correct('calender')).toEqual(['calendar']);
    expect(t.correct('abc')).toEqual([]); // too short to guess
  });
});
