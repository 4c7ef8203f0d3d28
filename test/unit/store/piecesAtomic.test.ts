// Text written in pieces as it is made (writePiecesAtomic: catalog.json, usage.json): the file holds the
// old text or the whole new one, a failed producer leaves no temp file, a link planted at the path is
// replaced and never written through, and two writes of one path land in the order they were asked.
import { describe, expect, it } from 'vitest';
import { chownSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PIECES_BLOCK_BYTES, removeLeftoverTemps, writePiecesAtomic } from '../../../src-main/core/store/atomicJson.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mws-pieces-'));
const piecesOf = (pieces: string[]) => async (write: (p: string) => Promise<void>) => {
  for (const p of pieces) await write(p);
};

describe('writePiecesAtomic', () => {
  it('writes every piece in order, across blocks, multi-byte characters at their edges, pieces larger than a block', async () => {
    const dir = folder();
    const path = join(dir, 'x.json');
    // Fills a block to one byte short, then a 3-byte and a 4-byte character that cannot fit in what is left.
    const pieces = [
      'a'.repeat(PIECES_BLOCK_BYTES - 1),
      '€',
      '😀',
      'é'.repeat(PIECES_BLOCK_BYTES),
      '',
      'z',
      'ü'.repeat(PIECES_BLOCK_BYTES * 3 + 7),
      '\n',
    ];
    await writePiecesAtomic(path, piecesOf(pieces));
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('keeps the old file and leaves no temp file when the producer fails', async () => {
    const dir = folder();
    const path = join(dir, 'x.json');
    writeFileSync(path, 'old');
    const failing = async (write: (p: string) => Promise<void>) => {
      await write('x'.repeat(PIECES_BLOCK_BYTES * 2));
      throw new Error('the producer broke');
    };
    await expect(writePiecesAtomic(path, failing)).rejects.toThrow('the producer broke');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('replaces a link planted at the path instead of writing through it', async () => {
    const dir = folder();
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'theirs');
    const path = join(dir, 'x.json');
    symlinkSync(target, path);
    await writePiecesAtomic(path, piecesOf(['ours']));
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('ours');
    expect(readFileSync(target, 'utf8')).toBe('theirs');
  });

  it('lands two writes of one path in the order they were asked, the slow first one included', async () => {
    const dir = folder();
    const path = join(dir, 'x.json');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = writePiecesAtomic(path, async (write) => {
      await write('first');
      await held;
    });
    // The same file by another spelling of its path waits all the same.
    const second = writePiecesAtomic(join(dir, '.', 'x.json'), piecesOf(['second']));
    release();
    await Promise.all([first, second]);
    expect(readFileSync(path, 'utf8')).toBe('second');
  });

  // CI runs as root; elsewhere there is no other owner to keep.
  it.runIf(process.getuid?.() === 0)(
    'keeps the owner of the file it replaces when root writes it (sudo mws … on a user’s folder)',
    async () => {
      const dir = folder();
      const path = join(dir, 'x.json');
      writeFileSync(path, 'old');
      chownSync(path, 4321, 4321);
      await writePiecesAtomic(path, piecesOf(['new']));
      expect(readFileSync(path, 'utf8')).toBe('new');
      expect([statSync(path).uid, statSync(path).gid]).toEqual([4321, 4321]);
    },
  );

  it('names its temp file so that a next start removes one a killed writer left', async () => {
    const dir = folder();
    const path = join(dir, 'x.json');
    writeFileSync(path, 'old');
    let release!: () => void;
    let opened!: () => void;
    const isOpen = new Promise<void>((r) => (opened = r));
    const held = new Promise<void>((r) => (release = r));
    const writing = writePiecesAtomic(path, async (write) => {
      await write('new');
      opened();
      await held;
    });
    await isOpen;
    expect(readdirSync(dir)).toHaveLength(2);
    expect(await removeLeftoverTemps([dir])).toBe(1);
    release();
    await expect(writing).rejects.toThrow(/ENOENT/);
    expect(readFileSync(path, 'utf8')).toBe('old');
  });
});
