// The four meta-tools, one module each in core/metaTools/, against in-memory twins: what each answers
// to a bad call, and that they share one error helper.
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Toolbox, type ToolEntry } from '../../../src-main/core/toolbox/toolbox.js';
import { META_TOOL_NAMES } from '../../../src-main/core/toolbox/reservedNames.js';
import { metaTools } from '../../../src-main/core/metaTools/definitions.js';
import { callToolHandler, type CallToolSteps } from '../../../src-main/core/metaTools/callTool.js';
import { missingName, toolNotFound } from '../../../src-main/core/metaTools/errors.js';
import type { CallContext } from '../../../src-main/core/metaTools/handler.js';
import { tool } from '../../helpers/sets.js';
import { decideApproval } from '../../../src-main/core/approvals/policy.js';

const ctx: CallContext = { via: 'direct', client: 'test', session: undefined };
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

function steps(): CallToolSteps & { forwarded: Array<{ tool: string; args: unknown; via: string }> } {
  const toolbox = new Toolbox(new Map([['v', [tool('read'), tool('write', false)]]]), true);
  const forwarded: Array<{ tool: string; args: unknown; via: string }> = [];
  return {
    forwarded,
    resolve: async (name) => toolbox.resolve(name),
    unknownToolMessage: (name) => `No tool named "${name}".`,
    check: (_e: ToolEntry, args) => (args && 'bad' in args ? 'bad is not a parameter' : undefined),
    forward: async (_agent, entry, args, c) => {
      forwarded.push({ tool: entry.name, args, via: c.via });
      return { content: [{ type: 'text', text: 'ran' }] };
    },
  };
}

describe('the meta-tool definitions', () => {
  it('list the four meta-tools in the reserved order', () => {
    expect(metaTools({}).map((t) => t.name)).toEqual([...META_TOOL_NAMES]);
  });

  it('name the backends in search_tools when there are hints', () => {
    expect(metaTools({ mail: 'email' })[0]!.description).toContain('Backends: mail (email).');
  });
});

describe('call_tool', () => {
  it('runs the named tool through the same forward path, marked via call_tool', async () => {
    const s = steps();
    const r = await callToolHandler(s)('default', { name: 'v__read', arguments: { q: 1 } }, ctx);
    expect(text(r)).toBe('ran');
    expect(s.forwarded).toEqual([{ tool: 'v__read', args: { q: 1 }, via: 'call_tool' }]);
  });

  it('answers a tool error for a missing name, a meta-tool, an unknown tool and non-object arguments', async () => {
    const h = callToolHandler(steps());
    expect(text(await h('default', {}, ctx))).toBe('call_tool needs "name": the tool to run, as search_tools shows it.');
    expect(text(await h('default', { name: 'promote' }, ctx))).toBe('promote is a meta-tool: call it directly.');
    expect(text(await h('default', { name: 'nope' }, ctx))).toBe('No tool named "nope".');
    expect((await h('default', { name: 'v__read', arguments: [1] }, ctx)).isError).toBe(true);
  });

  it('previews a tool that is not read-only on dryRun, checking its arguments, without running it', async () => {
    const s = steps();
    const h = callToolHandler(s);
    expect(JSON.parse(text(await h('default', { name: 'v__write', dryRun: true }, ctx)))).toMatchObject({ dryRun: true, wouldRun: true });
    expect(text(await h('default', { name: 'v__write', dryRun: true, arguments: { bad: 1 } }, ctx))).toBe('bad is not a parameter');
    expect(s.forwarded).toEqual([]);
    await h('default', { name: 'v__read', dryRun: true }, ctx);
    expect(s.forwarded).toHaveLength(1); // a read-only tool runs on dryRun
  });

  it("on dryRun says what the real call would meet: a read-only agent's refusal is not wouldRun", async () => {
    for (const [mode, expected] of [
      ['read-only', { wouldRun: false, note: expect.stringMatching(/may only run read-only tools/) }],
      ['ask', { wouldRun: true, needsApproval: true }],
      ['allow', { wouldRun: true }],
    ] as const) {
      const s = { ...steps(), verdict: (_a: string, e: ToolEntry) => decideApproval(mode, e, undefined) };
      const r = JSON.parse(text(await callToolHandler(s)('default', { name: 'v__write', dryRun: true }, ctx))) as Record<string, unknown>;
      expect(r, mode).toMatchObject(expected);
      if (mode === 'allow') expect(r.needsApproval).toBeUndefined();
      expect(s.forwarded).toEqual([]);
    }
  });
});

describe('the shared error helper', () => {
  it('answers a missing name and an unknown tool as tool errors with a sentence', () => {
    expect(missingName('promote')).toEqual({
      content: [{ type: 'text', text: 'promote needs "name": the tool\'s name as search_tools shows it.' }],
      isError: true,
    });
    const nf = toolNotFound('raed', ['read'], 2);
    expect(nf.isError).toBe(true);
    expect(nf.structuredContent).toEqual({ error: 'tool_not_found', name: 'raed', matches: ['read'], toolboxSize: 2 });
    expect(text(nf)).toBe('tool_not_found: No tool named "raed". Close matches: read. Use search_tools to find it.');
  });
});
