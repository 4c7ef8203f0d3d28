// Parsed config JSON that shares its strings (src-main/core/config/sharedStrings.ts): the parse and the
// config editor's copy hold what JSON.parse would, with "__proto__" kept as the key JSON.parse made it.
import { describe, expect, it } from 'vitest';
import { cloneJson, parseSharingStrings } from '../../../src-main/core/config/sharedStrings.js';

describe('parseSharingStrings', () => {
  it('parses as JSON.parse does, nested arrays and objects included', () => {
    const text = JSON.stringify({
      agents: { a: { pins: ['mail__send', 'fs__read'] }, b: { pins: ['mail__send'], profile: 'mail__send' } },
      upstreams: { fs: { command: 'node', args: ['fs.js', ['node', 'x']], env: { A: 'node' } } },
      n: 1,
      ok: true,
      none: null,
      empty: [],
    });
    expect(parseSharingStrings(text)).toEqual(JSON.parse(text));
    expect(parseSharingStrings('"one"')).toBe('one');
    expect(parseSharingStrings('[1,"a","a"]')).toEqual([1, 'a', 'a']);
  });

  it('keeps a "__proto__" key as a key, and refuses what JSON.parse refuses', () => {
    const raw = parseSharingStrings('{"__proto__":"x","a":"x","b":{"__proto__":{"p":"x"}}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
    expect(Object.keys(raw)).toEqual(['__proto__', 'a', 'b']);
    expect(JSON.stringify(raw)).toBe('{"__proto__":"x","a":"x","b":{"__proto__":{"p":"x"}}}');
    expect(() => parseSharingStrings('{"a":')).toThrow(SyntaxError);
  });
});

describe('cloneJson', () => {
  it('copies objects and arrays, so a change to the copy leaves the original as it was', () => {
    const raw = JSON.parse('{"agents":{"a":{"pins":["mail__send","fs__read"]}},"n":1,"b":true,"z":null}') as {
      agents: { a: { pins: string[] } };
    };
    const copy = cloneJson(raw);
    expect(copy).toEqual(raw);
    expect(copy.agents).not.toBe(raw.agents);
    expect(copy.agents.a.pins).not.toBe(raw.agents.a.pins);
    copy.agents.a.pins.push('x');
    expect(raw.agents.a.pins).toEqual(['mail__send', 'fs__read']);
  });

  it('keeps a "__proto__" key as a key, never as the prototype', () => {
    const raw = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copy = cloneJson(raw);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(raw));
  });
});

describe('parseSharingStrings on deep nesting', () => {
  it('takes what JSON.parse takes, however deep (the schema says what is wrong with it)', () => {
    const depth = 20_000;
    const text = `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
    let v = parseSharingStrings(text);
    for (let i = 0; i < depth; i++) v = (v as unknown[])[0];
    expect(v).toBe('x');
  });
});
