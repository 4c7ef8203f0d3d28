import { describe, expect, it } from 'vitest';
import { jsonDepth, jsonSeparators, MAX_JSON_VALUES } from '../../../src-main/core/http/jsonBounds.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('jsonSeparators (values counted before a body is parsed)', () => {
  it('counts commas, colons and openings outside strings only, escapes included', () => {
    expect(jsonSeparators(bytes('{"a":1,"b":[1,2,3]}'), 10)).toBe(7);
    expect(jsonSeparators(bytes('{"a,b:c":"x,y:z","q\\":,[{":1}'), 10)).toBe(4);
  });

  it('counts a deep nest, which has no separator at all (it parsed for ~1 s at 2 million levels)', () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(60_000)}${']'.repeat(60_000)}}}`;
    expect(jsonSeparators(bytes(deep))).toBe(MAX_JSON_VALUES + 1);
  });

  it('does not scan a body too small to hold the limit, and stops counting past it', () => {
    expect(jsonSeparators(bytes('{"a":1}'), 100)).toBe(0);
    const many = `{${Array.from({ length: 300_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
    expect(jsonSeparators(bytes(many))).toBe(MAX_JSON_VALUES + 1);
  });

  it('lets a large body of few values through: a 3 MB string argument', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'write', arguments: { text: 'a:b,c '.repeat(500_000) } },
    });
    expect(jsonSeparators(bytes(body))).toBeLessThan(20);
  });
});

describe('jsonDepth (nesting counted before a body is parsed)', () => {
  it('counts the deepest nesting outside strings, and stops past the bound', () => {
    expect(jsonDepth(bytes('{"a":[1,{"b":[]}],"c":{}}'), 10)).toBe(4);
    expect(jsonDepth(bytes('{"a":"[[[[{{{{\\"[["}'), 10)).toBe(1);
    expect(jsonDepth(bytes(`${'['.repeat(1_000_000)}`), 32)).toBe(33);
  });
});
