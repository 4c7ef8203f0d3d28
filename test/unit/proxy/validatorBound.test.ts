// Validators are bounded: calls to many distinct tools keep at most the bound compiled, in our cache
// and in ajv's own, and an evicted tool still validates when called again.
import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from '../../../src-main/core/proxy/argValidation.js';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';

function toolbox(n: number): Toolbox {
  const tools = Array.from({ length: n }, (_, i) => ({
    name: `t${i}`,
    description: `tool ${i}`,
    inputSchema: { type: 'object' as const, properties: { [`p${i}`]: { type: 'string' } }, required: [`p${i}`] },
  }));
  return new Toolbox(new Map([['v', tools]]), false);
}

describe('the validator cache', () => {
  it('keeps at most its bound after calls to many distinct tools, in ajv too', () => {
    const tb = toolbox(300);
    const v = new ArgumentValidator(50);
    for (const e of tb.all()) expect(v.check(e, {})).toMatch(/is required/);
    expect(v.size).toBe(50);
    // ajv's own cache of compiled schemas follows ours (a private field: the leak this bound stops).
    const ajvCache = (v as unknown as { ajv: { _cache: Map<unknown, unknown> } }).ajv._cache;
    expect(ajvCache.size).toBeLessThanOrEqual(50 + 5);
    const first = tb.get('t0')!;
    expect(v.check(first, { p0: 'x' })).toBeUndefined();
    expect(v.check(first, {})).toMatch(/"p0" is required/);
  });

  it('keeps the recently used ones', () => {
    const tb = toolbox(4);
    const v = new ArgumentValidator(2);
    const [a, b, c] = [tb.get('t0')!, tb.get('t1')!, tb.get('t2')!];
    v.check(a, {});
    v.check(b, {});
    v.check(a, {}); // a is now the most recent
    v.check(c, {}); // evicts b
    const compiled = v.compiledByCurrent;
    v.check(a, {});
    v.check(c, {});
    expect(v.compiledByCurrent).toBe(compiled);
    v.check(b, {});
    expect(v.compiledByCurrent).toBe(compiled + 1);
  });

  it('compiles a schema shared by many tools once, each tool still named in its own problems', () => {
    const shape = () => ({ type: 'object' as const, properties: { id: { type: 'string' } }, required: ['id'] });
    const tools = Array.from({ length: 1000 }, (_, i) => ({ name: `same${i}`, inputSchema: shape() }));
    const tb = new Toolbox(new Map([['v', tools]]), false);
    const v = new ArgumentValidator(50);
    for (const e of tb.all())
      expect(v.check(e, {})).toContain(`The arguments for ${e.name} do not match its input schema: "id" is required`);
    expect(v.compiledByCurrent).toBe(1);
    expect(v.size).toBe(1);
    expect(v.check(tb.get('same7')!, { id: 'x' })).toBeUndefined();
    // The same content in another key order is another schema as far as the key goes: compiled apart, still right.
    const reordered = new Toolbox(
      new Map([['w', [{ name: 'r', inputSchema: { required: ['id'], type: 'object' as const, properties: { id: { type: 'string' } } } }]]]),
      false,
    );
    expect(v.check(reordered.get('r')!, {})).toMatch(/"id" is required/);
  });

  it('lets compiled code go: the scope of ajv (names and functions of every schema compiled) stays bounded', () => {
    // removeSchema leaves each validator's code and names in ajv's scope, and every validator holds
    // that scope: one ajv instance grew by ~7 kB per distinct schema ever called (73 MB at 10,000).
    const tb = toolbox(1000);
    const v = new ArgumentValidator(50);
    const scopeNames = () => {
      const values = (v as unknown as { ajv: { scope: { _values: Record<string, Map<unknown, unknown>> } } }).ajv.scope._values;
      return Object.values(values).reduce((n, m) => n + m.size, 0);
    };
    for (const e of tb.all()) v.check(e, {});
    expect(v.size).toBe(50);
    expect(v.compiledByCurrent).toBeLessThanOrEqual(100);
    // A few names per compiled schema, for at most 2 × the bound schemas.
    expect(scopeNames()).toBeLessThan(100 * 4);
    const last = tb.get('t999')!;
    expect(v.check(last, { p999: 'x' })).toBeUndefined();
    expect(v.check(tb.get('t0')!, {})).toMatch(/"p0" is required/);
  });

  it("checks two upstreams' schemas that share an $id each against its own, and a schema's references to itself still resolve", () => {
    const withId = (name: string, prop: string) => ({
      name,
      inputSchema: { $id: 'https://example.com/s', type: 'object' as const, properties: { [prop]: { type: 'string' } }, required: [prop] },
    });
    const tb = new Toolbox(
      new Map([
        ['one', [withId('a', 'p')]],
        ['two', [withId('b', 'q')]],
      ]),
      true,
    );
    const v = new ArgumentValidator(50);
    expect(v.check(tb.get('one__a')!, {})).toMatch(/"p" is required/);
    // The second was refused as "already exists" and went unchecked.
    expect(v.check(tb.get('two__b')!, {})).toMatch(/"q" is required/);
    const selfRef = {
      $id: 'https://example.com/t',
      type: 'object' as const,
      definitions: { n: { type: 'number' } },
      properties: {
        a: { $ref: '#/definitions/n' },
        b: { $ref: 'https://example.com/t#/definitions/n' },
        c: { type: 'array', items: { $ref: '#' } },
      },
    };
    const refs = new Toolbox(new Map([['v', [{ name: 'r', inputSchema: selfRef }]]]), false);
    expect(v.check(refs.get('r')!, { a: 'x', b: 'y', c: [{ a: 'z' }] })).toMatch(
      /"a" must be number; "b" must be number; "c\.0\.a" must be number/,
    );
    expect(v.check(refs.get('r')!, { a: 1, b: 2, c: [{ a: 3 }] })).toBeUndefined();
  });
});
