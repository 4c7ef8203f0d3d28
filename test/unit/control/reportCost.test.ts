// The report's token counts come from per-tool caches, and equal tokenizing the whole listing.
import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { countTokens } from 'gpt-tokenizer';
import { listingCost } from '../../../src-main/core/control/report/report.js';
import { MAX_ENTRIES, TokenCountFile } from '../../../src-main/core/control/report/tokenCounts.js';
import { ROOT } from '../../helpers/processes.js';

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

  it('counts a definition once across toolboxes and restarts, and loads no tokenizer when every definition is known', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-tokens-'));
    const sub = tools.slice(0, 30);
    const text = JSON.stringify(sub);
    const expected = { bytes: Buffer.byteLength(text), tokens: countTokens(text) };
    // A fresh module: its tokenizer is not loaded yet, whatever other tests did.
    vi.resetModules();
    const first = await import('../../../src-main/core/control/report/report.js');
    const file = new TokenCountFile(stateDir);
    expect(
      await first.listingCost(
        sub.map((t) => ({ ...t })),
        file,
      ),
    ).toEqual(expected);
    expect(first.tokenizerStats().tokenized).toBe(30);
    // A rebuilt toolbox hands new objects with the same definitions: nothing is tokenized again.
    expect(
      await first.listingCost(
        sub.map((t) => ({ ...t })),
        file,
      ),
    ).toEqual(expected);
    expect(first.tokenizerStats().tokenized).toBe(30);
    await file.save();
    // A restart: another process (a fresh module) with the file the first one wrote.
    vi.resetModules();
    const second = await import('../../../src-main/core/control/report/report.js');
    expect(
      await second.listingCost(
        sub.map((t) => ({ ...t })),
        new TokenCountFile(stateDir),
      ),
    ).toEqual(expected);
    expect(second.tokenizerStats()).toEqual({ loaded: false, tokenized: 0 });
    // A changed definition is counted anew.
    const changed = sub.map((t, i) => (i === 0 ? { ...t, description: `${t.description ?? ''} Changed.` } : { ...t }));
    const changedText = JSON.stringify(changed);
    expect(await second.listingCost(changed, new TokenCountFile(stateDir))).toEqual({
      bytes: Buffer.byteLength(changedText),
      tokens: countTokens(changedText),
    });
    expect(second.tokenizerStats()).toEqual({ loaded: true, tokenized: 1 });
  });

  it('keeps a bounded number of counts, the least recently used dropped first', () => {
    const file = new TokenCountFile(undefined);
    for (let i = 0; i < MAX_ENTRIES + 10; i++) file.set(`k${i}`, { bytes: i, tokens: i });
    expect(file.size).toBe(MAX_ENTRIES);
    expect(file.get('k0')).toBeUndefined();
    expect(file.get(`k${MAX_ENTRIES + 9}`)).toEqual({ bytes: MAX_ENTRIES + 9, tokens: MAX_ENTRIES + 9 });
  });

  it('treats a damaged or foreign counts file as empty', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-tokens-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(stateDir, 'token-counts.json'), '{"version":1,"encoding":"cl100k_base","counts":{"x":[1,2]}}');
    const foreign = new TokenCountFile(stateDir);
    await foreign.load();
    expect(foreign.size).toBe(0);
    writeFileSync(join(stateDir, 'token-counts.json'), '{not json');
    const damaged = new TokenCountFile(stateDir);
    await damaged.load();
    expect(damaged.size).toBe(0);
  });
});
