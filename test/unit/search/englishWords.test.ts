// The English word list searched in place (src-main/core/search/englishWords.ts): every word of the
// package's file is found, and nothing else is, out-of-order lines included.
import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';
import { describe, expect, it } from 'vitest';
import { hasLine, isEnglishWord, sortedLines } from '../../../src-main/core/search/englishWords.js';

describe('hasLine and sortedLines', () => {
  it('finds each line of a sorted text, first and last included, and nothing between them', () => {
    const text = 'apple\nbread\ncar\nread\nzebra';
    for (const w of ['apple', 'bread', 'car', 'read', 'zebra']) expect(hasLine(text, w)).toBe(true);
    for (const w of ['', 'a', 'appl', 'apples', 'bre', 'cars', 'zebras', 'zz', 'ead', 'read\ncar']) expect(hasLine(text, w)).toBe(false);
    expect(hasLine('', 'a')).toBe(false);
    expect(hasLine('one\n', 'one')).toBe(true);
  });

  it('ends on a text that starts with an empty line, and finds words around empty lines once they are cut', () => {
    // A leading newline once made the search's first line start past its middle: a loop without end.
    expect(hasLine('\nb', 'a')).toBe(false);
    expect(hasLine('\nb', 'b')).toBe(true);
    const { text, outOfOrder } = sortedLines('\n\na\nc\n\nb\nd\n\n');
    expect(text).toBe('a\nc\nd\n');
    expect([...outOfOrder]).toEqual(['b']);
    for (const w of ['a', 'c', 'd']) expect(hasLine(text, w)).toBe(true);
    expect(sortedLines('a\n\nb').text).toBe('a\nb');
    expect(hasLine(sortedLines('a\n\nb').text, 'a')).toBe(true);
  });

  it('takes out the lines out of order, so the search over the rest stays right', () => {
    const { text, outOfOrder } = sortedLines('a\nc\nb\nd\ne\nAa\nf\n');
    expect([...outOfOrder]).toEqual(['b', 'Aa']);
    expect(text).toBe('a\nc\nd\ne\nf\n');
    for (const w of ['a', 'c', 'd', 'e', 'f']) expect(hasLine(text, w)).toBe(true);
    expect(sortedLines('a\nb\n').text).toBe('a\nb\n');
  });
});

describe('isEnglishWord over the whole word-list package', () => {
  it('knows every word in the file, and of a thousand words with a letter added, exactly those in it', () => {
    const words = readFileSync(wordListPath, 'utf8').split('\n').filter(Boolean);
    expect(words.length).toBeGreaterThan(200_000);
    const missed = words.filter((w) => !isEnglishWord(w));
    expect(missed).toEqual([]);
    const all = new Set(words);
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 1000; i++) {
      const w = words[Math.floor(rand() * words.length)]! + 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rand() * 26)];
      expect(isEnglishWord(w)).toBe(all.has(w));
    }
    expect(isEnglishWord('')).toBe(false);
  });
});
