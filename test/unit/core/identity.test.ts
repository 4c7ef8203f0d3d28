// Keys made of identities (src-main/core/identity.ts).
import { describe, expect, it } from 'vitest';
import { objectId, sameItems } from '../../../src-main/core/identity.js';

describe('sameItems', () => {
  it('compares item by item with ===', () => {
    const o = {};
    expect(sameItems([o, 1, 'a', null], [o, 1, 'a', null])).toBe(true);
    expect(sameItems([o], [{}])).toBe(false);
    expect(sameItems([1], [1, 2])).toBe(false);
    expect(sameItems([NaN], [NaN])).toBe(false);
  });
});

describe('objectId', () => {
  it('is the same number for one object and another for any other', () => {
    const a = {};
    const b: unknown[] = [];
    expect(objectId(a)).toBe(objectId(a));
    expect(objectId(b)).not.toBe(objectId(a));
    expect(objectId({})).not.toBe(objectId({}));
  });
});
