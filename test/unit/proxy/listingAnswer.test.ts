// The fast path's tools/list answer, assembled from each tool's cached UTF-8 bytes (proxy/fastPath.ts):
// the same JSON the old string join gave, whatever the characters, and the same bytes for a tool object
// listed again.
import { describe, expect, it } from 'vitest';
import { listingAnswer } from '../../../src-main/core/proxy/fastPath.js';
import { listResultAround } from '../../../src-main/core/proxy/results.js';

const tools = [
  { name: 'café_search', description: 'Finds cafés ☕ and 😀 reviews', inputSchema: { type: 'object' } },
  { name: 'lone', description: 'half a pair: \ud800', inputSchema: { type: 'object' } },
  { name: 'plain', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
];

describe('a tools/list answer from cached bytes', () => {
  for (const era of ['session', 'stateless'] as const) {
    it(`is the joined JSON, byte for byte (${era})`, () => {
      const [before, after] = listResultAround(era);
      const head = `{"result":${before}`;
      const tail = `${after},"jsonrpc":"2.0","id":7}`;
      const answer = listingAnswer(tools, head, tail);
      const joined = `${head}[${tools.map((t) => JSON.stringify(t)).join(',')}]${tail}`;
      expect(answer.equals(Buffer.from(joined))).toBe(true);
      expect(JSON.parse(answer.toString('utf8'))).toMatchObject({ id: 7, result: { tools } });
    });
  }

  it('lists nothing as an empty array, and a tool object listed again as the same bytes', () => {
    expect(listingAnswer([], '{"tools":', '}').toString()).toBe('{"tools":[]}');
    const one = [tools[0]!];
    expect(listingAnswer(one, '', '').equals(listingAnswer(one, '', ''))).toBe(true);
    // A changed tool is a new object (a change replaces a list, never edits it): its own bytes.
    const changed = [{ ...tools[0]!, description: 'other' }];
    expect(JSON.parse(listingAnswer(changed, '', '').toString())).toEqual(changed);
  });
});
