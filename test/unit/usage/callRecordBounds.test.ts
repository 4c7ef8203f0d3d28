// What a call record keeps of what a client sent: texts cut to a bound, arguments past a bound replaced
// by a marker, and the file's size decided at each write (a deleted file is made again).
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/app.js';
import {
  ARGUMENTS_DROPPED,
  RECORD_TEXT_MAX_CHARS,
  boundCallRecord,
  boundSearchRecord,
  capText,
} from '../../../src-main/core/usage/callRecordBounds.js';
import { JsonlAppender, PATH_CHECK_MS } from '../../../src-main/core/store/jsonl.js';

const rec = {
  ts: '2026-01-01T00:00:00.000Z',
  agent: 'default',
  tool: 't'.repeat(100_000),
  via: 'direct' as const,
  ok: true,
  ms: 1,
  client: 'c'.repeat(1_000_000),
  session: 's'.repeat(5_000),
  upstream: 'v',
};

describe('boundCallRecord', () => {
  it('cuts every text a client controls to its bound and marks the cut', () => {
    const b = boundCallRecord(rec);
    for (const t of [b.tool, b.client, b.session!]) {
      expect(t.length).toBe(RECORD_TEXT_MAX_CHARS);
      expect(t.endsWith('…')).toBe(true);
    }
    expect(b.agent).toBe('default');
    expect(b.upstream).toBe('v');
    expect(boundSearchRecord({ ts: rec.ts, event: 'search', agent: 'a', bytes: 1, results: 1, client: rec.client }).client).toHaveLength(
      RECORD_TEXT_MAX_CHARS,
    );
  });

  it('keeps arguments within 32 KB and replaces larger ones by a marker', () => {
    expect(boundCallRecord({ ...rec, arguments: { q: 'x' } }).arguments).toEqual({ q: 'x' });
    expect(boundCallRecord({ ...rec, arguments: { q: 'x'.repeat(40_000) } }).arguments).toEqual(ARGUMENTS_DROPPED);
    expect(boundCallRecord({ ...rec, result: 'r'.repeat(100_000) }).result!.length).toBeLessThanOrEqual(8 * 1024);
  });

  it('never splits a surrogate pair', () => {
    const cut = capText('a' + '😀'.repeat(200), 10);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(cut.length).toBeLessThanOrEqual(10);
  });
});

describe('JsonlAppender with a bound', () => {
  it('writes a record that would fill a file someone else deleted since its last look to a new file', () => {
    const dir = tempDir('mws-jsonl-');
    const path = join(dir, 'a.jsonl');
    const to = join(dir, 'a.1.jsonl');
    const clock = { ms: 0 };
    const out = new JsonlAppender(path, { rotate: { to, maxBytes: () => 100 }, now: () => clock.ms });
    expect(out.append({ pad: 'x'.repeat(60) })).toBe(true);
    rmSync(path);
    clock.ms += 1;
    // Inside the window the size kept is the deleted file's: this record would move it aside.
    expect(out.append({ pad: 'y'.repeat(60) })).toBe(true);
    expect(out.dropped).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(`{"pad":"${'y'.repeat(60)}"}\n`);
    expect(existsSync(to)).toBe(false);
    void out.close();
  });

  it('rotates at the write that would cross the bound, refuses a record larger than it, and makes a deleted file again once it looks at the path', () => {
    const dir = tempDir('mws-jsonl-');
    const path = join(dir, 'a.jsonl');
    const to = join(dir, 'a.1.jsonl');
    const clock = { ms: 0 };
    const out = new JsonlAppender(path, { rotate: { to, maxBytes: () => 500 }, now: () => clock.ms });
    for (let i = 0; i < 100; i++) {
      expect(out.append({ i, pad: 'x'.repeat(40) })).toBe(true);
      expect(statSync(path).size).toBeLessThanOrEqual(500);
      if (existsSync(to)) expect(statSync(to).size).toBeLessThanOrEqual(500);
    }
    expect(out.append({ pad: 'x'.repeat(600) })).toBe(false);
    expect(out.lastError?.message).toMatch(/larger than the file's bound of 500 bytes/);
    expect(out.append({ open: true })).toBe(true);
    rmSync(path);
    // The path is looked at again at most every PATH_CHECK_MS: a record just after goes to the deleted file.
    clock.ms += PATH_CHECK_MS - 1;
    expect(out.append({ lost: true })).toBe(true);
    expect(existsSync(path)).toBe(false);
    clock.ms += 1;
    expect(out.append({ again: true })).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"again":true}\n');
    void out.close();
  });
});
