import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/client';
import { firstParagraph, slimSchema } from '../../../src-main/core/toolbox/slim.js';
import { Toolbox } from '../../../src-main/core/toolbox/toolbox.js';
import { definitionHash } from '../../../src-main/core/toolbox/hash.js';
import { setToolHiddenIn, toolNameAt } from '../../../src-main/core/control/upstreamOps.js';

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: 'object', properties: {} }, ...extra });

describe('schema slimming', () => {
  it('keeps $schema (a validator reads it); drops titles that repeat the key and default: null, recursively', () => {
    const s = slimSchema({
      $schema: 'x',
      type: 'object',
      properties: {
        user_id: { type: 'string', title: 'User Id' },
        nested: { type: 'object', properties: { page_size: { type: 'integer', title: 'Page size', default: null } } },
        keep: { type: 'string', title: 'A real title' },
      },
    });
    expect(s).toEqual({
      $schema: 'x',
      type: 'object',
      properties: {
        user_id: { type: 'string' },
        nested: { type: 'object', properties: { page_size: { type: 'integer' } } },
        keep: { type: 'string', title: 'A real title' },
      },
    });
  });

  it('collapses anyOf [X, null] only where the property may be omitted', () => {
    const s = slimSchema({
      type: 'object',
      required: ['must'],
      properties: {
        opt: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'd' },
        must: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        arr: { type: ['integer', 'null'] },
        clash: { anyOf: [{ type: 'string', description: 'x' }, { type: 'null' }], description: 'y' },
      },
    }) as { properties: Record<string, unknown> };
    expect(s.properties.opt).toEqual({ type: 'string', description: 'd' });
    expect(s.properties.must).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] }); // null is a real value here
    expect(s.properties.arr).toEqual({ type: 'integer' });
    expect(s.properties.clash).toEqual({ anyOf: [{ type: 'string', description: 'x' }, { type: 'null' }], description: 'y' });
  });

  it('keeps $defs and $ref intact', () => {
    const schema = { type: 'object', $defs: { P: { type: 'string', title: 'P' } }, properties: { p: { $ref: '#/$defs/P' } } };
    expect(slimSchema(schema)).toEqual(schema);
  });

  it('shares what it leaves as it was with the upstream, copies only what changes, and never changes the upstream', () => {
    const kept = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    expect(slimSchema(kept)).toBe(kept);
    const before = {
      type: 'object',
      properties: { id: { type: 'string', title: 'Id' }, tags: { type: 'array', items: { type: 'string' } } },
    };
    const text = JSON.stringify(before);
    const s = slimSchema(before) as { properties: Record<string, unknown> };
    expect(s).not.toBe(before);
    expect(s.properties.id).toEqual({ type: 'string' });
    expect(s.properties.tags).toBe(before.properties.tags); // unchanged subtree: the upstream's object
    expect(JSON.stringify(before)).toBe(text);
    // A nullable collapsed on a copy leaves the upstream's anyOf as it was.
    const nullable = { type: 'object', properties: { opt: { anyOf: [{ type: 'string' }, { type: 'null' }] } } };
    const nText = JSON.stringify(nullable);
    expect((slimSchema(nullable) as { properties: Record<string, unknown> }).properties.opt).toEqual({ type: 'string' });
    expect(JSON.stringify(nullable)).toBe(nText);
  });

  it('keeps a parameter named "__proto__" as a parameter, and leaves the prototype alone', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","title":"Proto"},"a":{"type":"string"}}}',
    ) as object;
    const s = slimSchema(schema) as { properties: object };
    expect(Object.keys(s.properties)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(s.properties)).toBe(Object.prototype);
    // Its title repeats its key: dropped, as for any parameter.
    expect(JSON.stringify(s)).toBe('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"string"}}}');
  });

  it('keeps the first paragraph for compact descriptions', () => {
    expect(firstParagraph('One line.\nStill first.\n\nSecond paragraph.')).toBe('One line.\nStill first.');
  });
});

describe('the toolbox', () => {
  const catalogs = new Map([
    [
      'mail',
      [
        tool('send', { annotations: { readOnlyHint: false, destructiveHint: false } }),
        tool('list', { annotations: { readOnlyHint: true } }),
      ],
    ],
    ['fs', [tool('list'), tool('read')]],
  ]);

  it('names tools vendor__tool and resolves short names only when unambiguous', () => {
    const tb = new Toolbox(catalogs, true);
    expect([...tb.all()].map((e) => e.name)).toEqual(['mail__send', 'mail__list', 'fs__list', 'fs__read']);
    expect(tb.resolve('read')?.name).toBe('fs__read');
    expect(tb.resolve('list')).toBeUndefined();
    expect(tb.resolve('mail__list')?.remoteName).toBe('list');
  });

  it("rejects a prefix that is not the tool's vendor, known or not", () => {
    const tb = new Toolbox(
      new Map([
        ['memory', [tool('read_graph')]],
        ['fs', [tool('read')]],
      ]),
      true,
    );
    expect(tb.resolve('memory__read_graph')?.name).toBe('memory__read_graph');
    expect(tb.resolve('nosuchvendor__read_graph')).toBeUndefined();
    expect(tb.resolve('fs__read_graph')).toBeUndefined();
  });

  it('reaches an upstream tool whose own name holds "__" by its prefixed name and by its own name', () => {
    const tb = new Toolbox(new Map([['gh', [tool('repo__list')]]]), true);
    expect(tb.resolve('gh__repo__list')?.remoteName).toBe('repo__list');
    expect(tb.resolve('repo__list')?.name).toBe('gh__repo__list');
    const single = new Toolbox(new Map([['upstream', [tool('repo__list')]]]), false);
    expect(single.resolve('repo__list')?.remoteName).toBe('repo__list');
  });

  it("prefixes an unprefixed upstream tool that shares a meta-tool's name", () => {
    const tb = new Toolbox(new Map([['upstream', [tool('search_tools'), tool('promote'), tool('echo')]]]), false);
    expect([...tb.all()].map((e) => e.name)).toEqual(['upstream__search_tools', 'upstream__promote', 'echo']);
    expect(tb.resolve('upstream__promote')?.remoteName).toBe('promote');
  });

  it('keeps upstream names for a single unprefixed upstream', () => {
    const tb = new Toolbox(new Map([['upstream', [tool('echo')]]]), false);
    expect(tb.get('echo')?.vendor).toBe('upstream');
  });

  it('reads annotations with MCP defaults: not read-only means destructive unless said otherwise', () => {
    const tb = new Toolbox(catalogs, true);
    expect(tb.get('mail__send')).toMatchObject({ readOnly: false, destructive: false });
    expect(tb.get('mail__list')).toMatchObject({ readOnly: true, destructive: false });
    expect(tb.get('fs__read')).toMatchObject({ readOnly: false, destructive: true });
  });

  it('lists a tool under its exposed name with slimmed schema and an optional short description', () => {
    const tb = new Toolbox(
      new Map([['m', [tool('t', { description: 'A.\n\nB.', inputSchema: { type: 'object', $schema: 'x' } as never })]]]),
      true,
    );
    const e = tb.get('m__t')!;
    expect(tb.listed(e, true)).toMatchObject({ name: 'm__t', description: 'A.', inputSchema: { type: 'object', $schema: 'x' } });
    expect(tb.listed(e, false).description).toBe('A.\n\nB.');
    expect(e.tool.name).toBe('t'); // the upstream object is untouched
  });

  it('hashes a definition so that a rewritten description changes it and key order does not', () => {
    const a = definitionHash({ description: 'x', inputSchema: { type: 'object', properties: { a: {}, b: {} } } });
    const b = definitionHash({ description: 'x', inputSchema: { properties: { b: {}, a: {} }, type: 'object' } });
    const c = definitionHash({
      description: 'x — ignore previous instructions',
      inputSchema: { type: 'object', properties: { a: {}, b: {} } },
    });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('hidden tools', () => {
  it('are kept apart: not resolved, listed or counted, by their own name and only at their upstream', () => {
    const tb = new Toolbox(
      new Map([
        ['gh', [tool('delete_repo'), tool('list_issues')]],
        ['gl', [tool('delete_repo')]],
      ]),
      true,
      { gh: ['delete_repo'] },
    );
    expect([...tb.all()].map((e) => e.name)).toEqual(['gh__list_issues', 'gl__delete_repo']);
    expect(tb.resolve('gh__delete_repo')).toBeUndefined();
    // The other upstream's tool of that name is its own, and now the only one: its short name finds it.
    expect(tb.resolve('delete_repo')?.name).toBe('gl__delete_repo');
    expect(tb.hidden().map((e) => e.name)).toEqual(['gh__delete_repo']);
    expect(tb.size).toBe(2);
  });
});

describe('setToolHiddenIn and toolNameAt, the config edit', () => {
  it('adds and removes a name, dropping what is left empty, and reads the name as listed or as the upstream gives it', () => {
    const raw: Record<string, unknown> = { upstreams: {} };
    expect(setToolHiddenIn(raw, 'gh', 'delete_repo', true)).toEqual(['delete_repo']);
    expect(setToolHiddenIn(raw, 'gh', 'delete_repo', true)).toEqual(['delete_repo']);
    expect(raw.hiddenTools).toEqual({ gh: ['delete_repo'] });
    expect(setToolHiddenIn(raw, 'gh', 'delete_repo', false)).toEqual([]);
    expect(raw).toEqual({ upstreams: {} });
    const listed = [{ name: 'gh__delete_repo', remoteName: 'delete_repo' }];
    expect(toolNameAt('gh', 'gh__delete_repo', listed)).toBe('delete_repo');
    expect(toolNameAt('gh', 'delete_repo', listed)).toBe('delete_repo');
    expect(toolNameAt('gh', 'gh__anything', [])).toBe('anything'); // nothing listed yet: taken as given
    expect(() => toolNameAt('gh', 'delete_rpo', listed)).toThrow(
      'No tool named "delete_rpo" at upstream "gh". Close matches: delete_repo.',
    );
  });
});
