// The report's token counts come from per-tool caches, and equal tokenizing the whole listing.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { countTokens } from 'gpt-tokenizer';
import { listingCost } from '../../src-main/core/control/report.js';
import { ROOT } from '../helpers/processes.js';

const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/catalog.json'), 'utf8')) as { tools?: Tool[] } | Tool[];
const tools = (Array.isArray(fixture) ? fixture : fixture.tools!) as Tool[];

describe('listing cost', () => {
  it('equals the bytes and tokens of the whole listing, for any number of tools', async () => {
    for (const n of [0, 1, 2, 7, tools.length]) {
      const sub = tools.slice(0, n);
      const text = JSON.stringify(sub);
      expect(await listingCost(sub), `${n} tools`).toEqual({ bytes: Buffer.byteLength(text), tokens: countTokens(text) });
    }
  });

  it('tokenizes a tool object once, however many reports list it', async () => {
    const sub = tools.slice(0, 20).map((t) => ({ ...t }));
    await listingCost(sub);
    // A cached tool is not read again: a getter on a listed object would be touched by a re-tokenize.
    let reads = 0;
    const watched = sub.map((t) => new Proxy(t, { get: (o, k) => ((reads += 1), Reflect.get(o, k)) }));
    await listingCost(watched);
    const readsFirst = reads;
    await listingCost(watched);
    expect(reads).toBe(readsFirst);
  });
});
