// The search index's postings table (src-main/core/search/postings.ts): terms share flat arrays, each
// term's range is its own, and a table never takes more than it was made for.
import { describe, expect, it } from 'vitest';
import { IN_NAME, PostingsTable } from '../../../src-main/core/search/postings.js';

function filled(): PostingsTable {
  const t = new PostingsTable(2, 3);
  const a = t.add('send', 2);
  t.docs.set([0, 4], a);
  t.sat.set([0.5, 0.25], a);
  t.fields.set([IN_NAME | 4, 16], a);
  const b = t.add('mail', 1);
  t.docs[b] = 4;
  t.sat[b] = 0.75;
  t.fields[b] = 2;
  return t;
}

describe('PostingsTable', () => {
  it('gives each term its own range of the shared arrays', () => {
    const t = filled();
    const send = t.id('send');
    const mail = t.id('mail');
    expect([t.start(send), t.end(send), t.start(mail), t.end(mail)]).toEqual([0, 2, 2, 3]);
    expect([...t.docs.subarray(t.start(mail), t.end(mail))]).toEqual([4]);
    expect(t.sat[t.start(mail)]).toBeCloseTo(0.75);
    expect([t.df('send'), t.df('mail'), t.df('gone')]).toEqual([2, 1, undefined]);
    expect([t.has('send'), t.has('gone'), t.id('gone')]).toEqual([true, false, -1]);
  });

  it('answers the fields that hold a term for one tool, 0 where it holds none', () => {
    const t = filled();
    expect(t.fieldsOf('send', 0)).toBe(IN_NAME | 4);
    expect(t.fieldsOf('send', 4)).toBe(16);
    expect(t.fieldsOf('mail', 0)).toBe(0);
    expect(t.fieldsOf('gone', 0)).toBe(0);
  });

  it('refuses a term twice, one term too many, and postings past its size', () => {
    const t = new PostingsTable(2, 3);
    t.add('send', 2);
    expect(() => t.add('send', 1)).toThrow(/added twice/);
    expect(() => t.add('mail', 2)).toThrow(/more terms or postings/);
    t.add('mail', 1);
    expect(() => t.add('more', 0)).toThrow(/more terms or postings/);
  });
});
