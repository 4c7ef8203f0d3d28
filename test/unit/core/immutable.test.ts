// Values shared between answers (src-main/core/immutable.ts).
import { describe, expect, it } from 'vitest';
import { deepFreeze, isDeeplyFrozen } from '../../../src-main/core/immutable.js';

describe('deepFreeze', () => {
  it('freezes everything reachable, arrays included, and marks only the value given', () => {
    const inner = { rows: [{ a: 1 }, { b: [2] }] };
    const value: Record<string, unknown> = { inner, list: [inner], n: 1, s: 'x', none: null };
    expect(deepFreeze(value)).toBe(value);
    for (const o of [value, inner, inner.rows, inner.rows[0], inner.rows[1], (inner.rows[1] as { b: number[] }).b, value.list])
      expect(Object.isFrozen(o)).toBe(true);
    expect(isDeeplyFrozen(value)).toBe(true);
    expect(isDeeplyFrozen(inner)).toBe(false);
    expect(isDeeplyFrozen(Object.freeze({ a: {} }))).toBe(false);
    expect(deepFreeze(3)).toBe(3);
  });

  it('refuses a cycle with a sentence, as JSON would', () => {
    const value: Record<string, unknown> = { a: 1 };
    value.self = value;
    expect(() => deepFreeze(value)).toThrow(/nested more than 1000 levels deep \(a cycle\?\); it takes plain JSON data/);
    expect(isDeeplyFrozen(value)).toBe(false);
  });

  it('freezes what an object frozen only at its top holds', () => {
    const held = { n: 1 };
    const shallow = Object.freeze({ held });
    const value = deepFreeze({ shallow });
    expect(Object.isFrozen(held)).toBe(true);
    expect(() => {
      (value.shallow.held as { n: number }).n = 2;
    }).toThrow(TypeError);
  });
});
