// The edge decides by a request's path as the WHATWG URL parser makes it (dot segments resolved, bytes
// percent-encoded): the quick way for plain paths must give exactly what the parser gives, for any target.
import { describe, expect, it } from 'vitest';
import { normalizedPath } from '../../../src-main/core/http/edgeChain.js';

const parsed = (t: string) => {
  try {
    return new URL(`http://127.0.0.1${t}`).pathname;
  } catch {
    return undefined;
  }
};

describe("a request target's path", () => {
  it('is what the URL parser makes of it, plain or not', () => {
    const targets = [
      '/mcp',
      '/mcp/a1',
      '/mcp/a1?session=1&x=%zz',
      '/mcp?',
      '//x',
      '/a/../b',
      '/mcp/./a1',
      '/%2e%2e/x',
      '/mcp%2Fa1',
      '/a//b?c#d',
      '/ä',
      '/a b',
      '/x#y',
      '/a\\b',
      '/mcp/a1;x',
      '/control/status',
      '/',
    ];
    // And every two-character tail of a plain prefix, over printable ASCII.
    for (let a = 0x20; a < 0x7f; a++)
      for (const b of ['', '/', 'x', '.', '?', '%', '#'])
        targets.push(`/mcp/${String.fromCharCode(a)}${b}`, `/mcp${String.fromCharCode(a)}${b}a`);
    for (const t of targets) expect(normalizedPath(t), t).toBe(parsed(t));
  });

  it('is what the URL parser makes of plain prefixes with any tail (seeded random targets)', () => {
    const pieces = [
      '\\',
      '%',
      '%2e',
      '%2F',
      '.',
      '..',
      ';',
      '#',
      '?',
      '@',
      ':',
      '[',
      ']',
      '~',
      '|',
      '`',
      '"',
      "'",
      '<',
      ' ',
      '\t',
      '\n',
      '\r',
      '\u0000',
      '\u007f',
      'ä',
      '\u00a0',
      '\ud800',
      '\u2028',
      '\ufeff',
      '//',
      '/',
      'a',
      'Z',
      '9',
      '-',
      '_',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      let t = ['/', '/mcp', '/mcp/a1', '//', '/control'][Math.floor(next() * 5)]!;
      for (let k = Math.floor(next() * 7); k > 0; k--) t += pieces[Math.floor(next() * pieces.length)];
      expect(normalizedPath(t), JSON.stringify(t)).toBe(parsed(t));
    }
  });

  it('is none for a target that is not a path', () => {
    for (const t of [undefined, '', 'mcp', '*', 'http://127.0.0.1/mcp']) expect(normalizedPath(t)).toBeUndefined();
  });
});
