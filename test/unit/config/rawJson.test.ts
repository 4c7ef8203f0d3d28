// The config document as parsed JSON (src-main/core/config/rawJson.ts): read as JSON.parse would with
// its repeated strings held once, copied without copying strings, "__proto__" kept as the key JSON.parse
// made it, and any nesting JSON.parse takes parsed and copied.
import { describe, expect, it } from 'vitest';
import { cloneJson, parseSharingStrings, shareConfigStrings } from '../../../src-main/core/config/rawJson.js';

describe('shareConfigStrings', () => {
  it('holds each repeated string of 11 characters or more once (V8 shares shorter ones itself)', () => {
    const raw = JSON.parse(
      JSON.stringify({
        agents: {
          a: { pins: ['mail__send_message', 'fs__read'] },
          b: { pins: ['mail__send_message', 'fs__read'], profile: 'mail__send_message' },
        },
      }),
    ) as unknown;
    const text = JSON.stringify(raw);
    // "mail__send_message" three times: two now point at the first; "fs__read" is too short to bother.
    expect(shareConfigStrings(raw)).toBe(2);
    expect(JSON.stringify(raw)).toBe(text);
  });
});

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

describe('deep nesting', () => {
  it('is parsed and copied as deep as JSON.parse takes it (the schema says what is wrong with it)', () => {
    const depth = 20_000;
    const text = `${'[{"a":'.repeat(depth)}"x"${'}]'.repeat(depth)}`;
    const innermost = (v: unknown): unknown => {
      for (let i = 0; i < depth; i++) v = (v as Array<{ a: unknown }>)[0]!.a;
      return v;
    };
    const parsed = parseSharingStrings(text);
    expect(innermost(parsed)).toBe('x');
    const copy = cloneJson(parsed);
    expect(copy === parsed).toBe(false);
    expect(innermost(copy)).toBe('x');
  });
});
