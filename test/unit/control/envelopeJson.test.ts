// The listener's answer text (src-main/core/control/transport/envelopeJson.ts): what JSON.stringify gives
// for the envelope, whatever its shape, a large result array written an element at a time.
import { describe, expect, it } from 'vitest';
import { envelopeJson } from '../../../src-main/core/control/transport/envelopeJson.js';
import { PAGED_MIN_CHARS, PAGED_TEXT_CHUNK_BYTES } from '../../../src-main/core/pagedBytes.js';
import { deepFreeze } from '../../../src-main/core/immutable.js';

const text = (a: string | Buffer[]) => (typeof a === 'string' ? a : Buffer.concat(a).toString('utf8'));

/** Rows like a report's, with characters of one to four UTF-8 bytes and ones JSON escapes. */
const rows = (n: number, width = 40) =>
  Array.from({ length: n }, (_, i) => ({
    agent: `a${i}`,
    name: `Café — ☕ 😀 "quoted" \\ ${'x'.repeat(i % width)}\n`,
    listed: [{ tool: `t${i}`, since: null, pinned: i % 2 === 0, tokens: i * 1.5 }],
  }));

describe('envelopeJson', () => {
  it('is the text JSON.stringify gives, for every shape of answer', () => {
    const fn = () => 1;
    const bodies: unknown[] = [
      { ok: true, result: [] },
      { ok: true, result: rows(3) },
      { ok: true, result: rows(9000) },
      { ok: true, result: [undefined, fn, Symbol('s'), null, 1, 'x', [undefined], { a: undefined }] },
      { ok: true, result: { agents: rows(9000) } },
      { ok: true, result: 'a lone surrogate \ud800 and a pair 😀' },
      { ok: true, result: null },
      { ok: false, error: { code: 'usage', message: 'No.', data: { list: rows(9000) } } },
      // Not dispatch's shape: the keys in another order, or one more.
      { result: rows(9000), ok: true },
      { ok: true, result: rows(9000), version: '2' },
      { ok: true, result: [`${'é'.repeat(PAGED_TEXT_CHUNK_BYTES)}`, 'after'] },
      // Long only once the closing brackets are counted.
      { ok: true, result: ['x'.repeat(Math.ceil(PAGED_MIN_CHARS) - 25)] },
      { ok: true, result: ['x'.repeat(Math.ceil(PAGED_MIN_CHARS) - 26)] },
      // A toJSON (nothing has one today) is honoured as JSON.stringify honours it.
      { ok: true, result: Object.assign(rows(9000), { toJSON: () => 'the array' }) },
      { ok: true, result: [{ toJSON: (key: string) => `element ${key}` }, { toJSON: (key: string) => `element ${key}` }] },
      Object.assign(Object.create({ toJSON: () => ({ ok: false }) }) as object, { ok: true, result: rows(9000) }),
    ];
    for (const body of bodies) {
      const answer = envelopeJson(body);
      const expected = JSON.stringify(body);
      expect(text(answer)).toBe(expected);
      expect(typeof answer === 'string').toBe(expected.length < PAGED_MIN_CHARS);
    }
  });

  it('writes a large result an element at a time: chunks of a megabyte, not one text of the whole', () => {
    const result = rows(30_000);
    const answer = envelopeJson({ ok: true, result });
    expect(typeof answer).not.toBe('string');
    const chunks = answer as Buffer[];
    const total = chunks.reduce((n, c) => n + c.length, 0);
    expect(total).toBeGreaterThan(3 * PAGED_TEXT_CHUNK_BYTES);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(PAGED_TEXT_CHUNK_BYTES);
    expect(JSON.parse(text(answer))).toEqual({ ok: true, result });
  });

  it('writes an element frozen all the way down from the text made the first time, and any other element afresh', () => {
    let reads = 0;
    const counted = () => ({
      get n() {
        reads++;
        return reads;
      },
      rows: rows(2),
    });
    const kept = deepFreeze(counted());
    const shallow = Object.freeze(counted());
    const before = reads;
    const first = text(envelopeJson({ ok: true, result: [kept, shallow] }));
    expect(reads - before).toBe(2);
    const second = text(envelopeJson({ ok: true, result: [kept, shallow] }));
    // The kept element's getter is not read again; the one frozen only at its top is (its rows could change).
    expect(reads - before).toBe(3);
    expect(JSON.parse(second)).toEqual({
      ok: true,
      result: [JSON.parse(first).result[0], { n: reads, rows: JSON.parse(first).result[1].rows }],
    });
  });
});
