// Large buffers from pages of their own, never from the C allocator's heap (src-main/core/pagedBytes.ts):
// what each helper gives must be the same bytes or text as the ordinary way, paged once it is large.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PAGED_MIN_BYTES,
  PAGED_TEXT_CHUNK_BYTES,
  PagedText,
  PAGES_RETRY_MS,
  concatPaged,
  encodePaged,
  isPaged,
  latin1InPieces,
  pagedBuffer,
  pagesAvailable,
  readFilePaged,
  readFilePagedSync,
  readTextPaged,
} from '../../../src-main/core/pagedBytes.js';

const dir = mkdtempSync(join(tmpdir(), 'mws-paged-'));
/** Where WebAssembly memories cannot be made (a ulimit -v, --jitless) every buffer is the allocator's, by design. */
const PAGES = pagesAvailable();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text with characters of one to four UTF-8 bytes, so piece boundaries fall inside characters. */
function mixedText(chars: number): string {
  const alphabet = ['a', 'é', '☕', '😀', '\n', '"'];
  let s = '';
  for (let i = 0; s.length < chars; i++) s += alphabet[(i * 7) % alphabet.length];
  return s;
}

describe('pagedBuffer', () => {
  it('gives zeroed memory of the size asked, paged from PAGED_MIN_BYTES on, at offset 0 of its own ArrayBuffer', () => {
    const small = pagedBuffer(1000);
    expect(small.length).toBe(1000);
    expect(isPaged(small)).toBe(false);
    const large = pagedBuffer(PAGED_MIN_BYTES + 5);
    expect(large.length).toBe(PAGED_MIN_BYTES + 5);
    expect(isPaged(large)).toBe(PAGES);
    expect(large.byteOffset).toBe(0);
    expect(large.every((b) => b === 0)).toBe(true);
    // Views over it are what the vector cache keeps.
    const floats = new Float32Array(large.buffer, 0, 8);
    floats[7] = 1.5;
    expect(large.readFloatLE(28)).toBe(1.5);
  });
});

describe('encodePaged and concatPaged', () => {
  it('encode as Buffer.from does, large text included, and concatenate as Buffer.concat does', () => {
    for (const text of ['', 'short é', mixedText(300_000)]) {
      const bytes = encodePaged(text);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(isPaged(bytes)).toBe(PAGES && text.length > 100_000);
    }
    const pieces = [Buffer.from('head '), encodePaged(mixedText(200_000)), new Uint8Array([1, 2, 3])];
    const joined = concatPaged(pieces);
    expect(joined.equals(Buffer.concat(pieces))).toBe(true);
    expect(isPaged(joined)).toBe(PAGES);
  });
});

describe('reading files paged', () => {
  it('reads what readFileSync reads, empty, small and large files alike', async () => {
    const cases: Array<[string, Buffer]> = [
      ['empty', Buffer.alloc(0)],
      ['small', Buffer.from('{"a":1}')],
      ['large', Buffer.from(mixedText(700_000), 'utf8')],
    ];
    for (const [name, content] of cases) {
      const path = join(dir, name);
      writeFileSync(path, content);
      const sync = readFilePagedSync(path);
      const async = await readFilePaged(path);
      expect(sync.equals(readFileSync(path))).toBe(true);
      expect(async.equals(readFileSync(path))).toBe(true);
      expect(await readTextPaged(path)).toBe(readFileSync(path, 'utf8'));
      expect(isPaged(async)).toBe(PAGES && content.length >= PAGED_MIN_BYTES);
    }
  });

  it('reads a file longer than its stat says (/proc files say 0) whole', async () => {
    const path = '/proc/self/maps';
    if (process.platform !== 'linux') return;
    // The maps of this process change as it allocates: compare the lines that cannot, the node binary's.
    const binary = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.endsWith(process.execPath))
        .join('\n');
    expect(binary(readFilePagedSync(path).toString())).toBe(binary(readFileSync(path, 'utf8')));
    expect(binary((await readFilePaged(path)).toString())).toBe(binary(readFileSync(path, 'utf8')));
    expect(readFilePagedSync(path).length).toBeGreaterThan(16 * 1024);
  });

  it('fails as readFile does for a missing file', async () => {
    await expect(readFilePaged(join(dir, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => readFilePagedSync(join(dir, 'nope'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('PagedText', () => {
  it('holds the UTF-8 of what was appended, in chunks of a megabyte that never split a piece', () => {
    const pieces = Array.from({ length: 60 }, (_, i) => mixedText(1 + ((i * 7919) % 90_000)));
    const text = new PagedText();
    for (const p of pieces) text.append(p);
    const chunks = text.chunks();
    expect(Buffer.concat(chunks).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(PAGED_TEXT_CHUNK_BYTES);
      if (PAGES) expect(isPaged(c)).toBe(true);
    }
    // Each chunk ends where a piece ends: its text decodes whole.
    for (const c of chunks) expect(Buffer.from(c.toString('utf8'), 'utf8').equals(c)).toBe(true);
  });

  it('measures a piece that might not fit: characters of three bytes near the end of a chunk are all kept', () => {
    const text = new PagedText();
    text.append('a'.repeat(PAGED_TEXT_CHUNK_BYTES - 30));
    text.append('☕'.repeat(15));
    text.append('!');
    expect(text.chunks().map((c) => c.length)).toEqual([PAGED_TEXT_CHUNK_BYTES - 30, 46]);
    expect(Buffer.concat(text.chunks()).toString('utf8')).toBe(`${'a'.repeat(PAGED_TEXT_CHUNK_BYTES - 30)}${'☕'.repeat(15)}!`);
  });

  it('gives a piece larger than a chunk a chunk of its own, and nothing for nothing appended', () => {
    expect(new PagedText().chunks()).toEqual([]);
    const empty = new PagedText();
    empty.append('');
    expect(empty.chunks()).toEqual([]);
    const text = new PagedText();
    const big = mixedText(PAGED_TEXT_CHUNK_BYTES);
    text.append('[');
    text.append(big);
    text.append(']');
    const chunks = text.chunks();
    expect(chunks.map((c) => c.length)).toEqual([1, Buffer.byteLength(big), 1]);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`[${big}]`);
  });
});

describe('latin1InPieces', () => {
  it("decodes as toString('latin1') does, bytes past ASCII at the pieces' edges included", () => {
    const bytes = Buffer.alloc(3 * 512 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 256;
    expect(latin1InPieces(bytes)).toBe(bytes.toString('latin1'));
    expect(latin1InPieces(Buffer.from('small'))).toBe('small');
  });
});

describe('when a memory cannot be made', () => {
  it.skipIf(typeof WebAssembly !== 'object')(
    'uses the allocator, and does not ask V8 again for PAGES_RETRY_MS (V8 collects in full before each refusal)',
    () => {
      const made = vi.spyOn(WebAssembly, 'Memory').mockImplementation(() => {
        throw new RangeError('WebAssembly.Memory(): could not allocate memory');
      });
      try {
        // Past any refusal this process met before (the probe at the top, under a ulimit -v).
        let t = Date.now() + 10 * PAGES_RETRY_MS;
        const now = () => t;
        expect(isPaged(pagedBuffer(PAGED_MIN_BYTES, now))).toBe(false);
        expect(made).toHaveBeenCalledTimes(1);
        t += PAGES_RETRY_MS - 1;
        expect(pagedBuffer(PAGED_MIN_BYTES * 2, now).length).toBe(PAGED_MIN_BYTES * 2);
        expect(made).toHaveBeenCalledTimes(1);
        t += 1;
        pagedBuffer(PAGED_MIN_BYTES, now);
        expect(made).toHaveBeenCalledTimes(2);
        // A clock set back far counts as time passed: never stuck on the allocator.
        t -= 3 * PAGES_RETRY_MS;
        pagedBuffer(PAGED_MIN_BYTES, now);
        expect(made).toHaveBeenCalledTimes(3);
        made.mockRestore();
        t += PAGES_RETRY_MS;
        expect(isPaged(pagedBuffer(PAGED_MIN_BYTES, now))).toBe(PAGES);
      } finally {
        made.mockRestore();
      }
    },
  );
});
