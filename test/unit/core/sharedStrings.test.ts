// Repeated texts of a tool list kept once (src-main/core/sharedStrings.ts): the values stay
// equal, a repeated one becomes one string, and a hostile nesting is not walked to its end.
import { describe, expect, it } from 'vitest';
import { shareStrings } from '../../../src-main/core/sharedStrings.js';

describe('shareStrings', () => {
  it('leaves every value equal and keeps a repeated description once', () => {
    // Made at run time, as JSON.parse makes them: equal, but separate strings.
    const text = () => ['How many results', 'at most.'].join(' ');
    const tool = (name: string) =>
      JSON.parse(
        JSON.stringify({
          name,
          description: `The tool ${name}, which does its own thing.`,
          inputSchema: {
            type: 'object',
            properties: { limit: { type: 'integer', description: text() }, tags: { enum: [text(), 'short'] } },
          },
        }),
      ) as { inputSchema: { properties: { limit: { description: string }; tags: { enum: string[] } } } };
    const tools = [tool('a_tool'), tool('b_tool')];
    const before = JSON.stringify(tools);
    const holders = tools.map((t) => t.inputSchema.properties.limit);
    // The text four times (each tool's description of limit and its enum): three point at the first.
    expect(shareStrings(tools)).toBe(3);
    expect(JSON.stringify(tools)).toBe(before);
    expect(holders[0]!.description).toBe(holders[1]!.description);
    expect(tools[0]!.inputSchema.properties.tags.enum[0]).toBe(holders[1]!.description);
  });

  it('does not walk a nesting deeper than any real schema (a hostile upstream’s million brackets)', () => {
    let deep: Record<string, unknown> = { description: 'the innermost text of all' };
    for (let i = 0; i < 100_000; i++) deep = { items: deep };
    expect(() => shareStrings([{ name: 'x', inputSchema: deep }])).not.toThrow();
  });
});
