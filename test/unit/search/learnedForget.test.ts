// Forgetting one learned word of a tool: only that word stops counting, for that tool and every agent,
// it stays forgotten after a restart, and re-reading a transcript does not bring it back.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SearchLearning } from '../../../src-main/core/search/learning.js';
import { tempDir } from '../../helpers/app.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const make = (stateDir?: string) => new SearchLearning({ ...(stateDir ? { stateDir } : {}), now: () => NOW, enabled: () => true });
const words = (l: SearchLearning, tool: string, agent?: string) =>
  l
    .wordsFor(tool, agent)
    .map((w) => w.word)
    .sort();

describe('forgetting one learned word', () => {
  it('drops only that word of that tool, for every agent, and answers how many pairs changed', () => {
    const l = make();
    l.train('a', [
      { query: 'buy a cheap monitor', tool: 'browser_navigate', ts: NOW },
      { query: 'buy headphones', tool: 'browser_navigate', ts: NOW },
    ]);
    l.train('b', [
      { query: 'buying monitors', tool: 'browser_navigate', ts: NOW },
      { query: 'buy stamps', tool: 'mail_send_message', ts: NOW },
    ]);
    expect(words(l, 'browser_navigate')).toContain('buy');
    // "buy" matches "buying" by stem: three pairs of the tool held it, across two agents.
    expect(l.forget('browser_navigate', 'buy')).toBe(3);
    expect(words(l, 'browser_navigate')).toEqual(['cheap', 'headphones', 'monitor']);
    expect(words(l, 'browser_navigate', 'b')).not.toContain('buy');
    // The same word of another tool stays.
    expect(words(l, 'mail_send_message')).toContain('buy');
    // The pairs stay (the other words still count), so nothing more is forgotten the second time.
    expect(l.counts()).toEqual({ a: 2, b: 2 });
    expect(l.forget('browser_navigate', 'buy')).toBe(0);
  });

  it('forgets nothing for a stop word, a word never learned, or an unknown tool', () => {
    const l = make();
    l.train('a', [{ query: 'buy the monitor', tool: 'browser_navigate', ts: NOW }]);
    const before = l.revision;
    expect(l.forget('browser_navigate', 'the')).toBe(0);
    expect(l.forget('browser_navigate', 'keyboard')).toBe(0);
    expect(l.forget('nope', 'buy')).toBe(0);
    expect(l.revision).toBe(before);
    expect(words(l, 'browser_navigate')).toEqual(['buy', 'monitor']);
  });

  it('does not let a word of a long query that never counted start counting', () => {
    const l = make();
    const twelve = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima';
    l.train('a', [{ query: `${twelve} mike`, tool: 'browser_navigate', ts: NOW }]);
    expect(words(l, 'browser_navigate')).not.toContain('mike');
    expect(l.forget('browser_navigate', 'alpha')).toBe(1);
    expect(words(l, 'browser_navigate')).toHaveLength(11);
    expect(words(l, 'browser_navigate')).not.toContain('mike');
  });

  it('stays forgotten after a restart, in a file the loader reads as before', async () => {
    const dir = tempDir();
    const l = make(dir);
    l.train('a', [{ query: 'buy a monitor', tool: 'browser_navigate', ts: NOW }]);
    expect(l.forget('browser_navigate', 'monitor')).toBe(1);
    await l.flush();
    const file = JSON.parse(readFileSync(join(dir, 'learned.json'), 'utf8')) as {
      version: number;
      agents: Record<string, Array<Record<string, unknown>>>;
    };
    expect(file.version).toBe(1);
    expect(file.agents.a![0]).toMatchObject({ t: 'browser_navigate', q: 'buy', o: 'buy a monitor' });
    const again = make(dir);
    await again.load();
    expect(words(again, 'browser_navigate')).toEqual(['buy']);
  });

  it('reads a file written before words could be forgotten', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'learned.json'),
      JSON.stringify({ version: 1, agents: { a: [{ q: 'buy a monitor', t: 'browser_navigate', ts: NOW }] } }),
    );
    const l = make(dir);
    await l.load();
    expect(l.forget('browser_navigate', 'buy')).toBe(1);
    expect(words(l, 'browser_navigate')).toEqual(['monitor']);
  });

  it('a transcript read again does not bring a forgotten word back; a new search teaches it again', () => {
    const l = make();
    expect(l.observed('claude', [{ query: 'buy a monitor', tool: 'browser_navigate', ts: NOW - 60_000 }])).toBe(1);
    l.forget('browser_navigate', 'monitor');
    // The usage cursors started over: the same transcript line is read again.
    expect(l.observed('claude', [{ query: 'buy a monitor', tool: 'browser_navigate', ts: NOW - 60_000 }])).toBe(0);
    expect(words(l, 'browser_navigate')).toEqual(['buy']);
    // A later search that led there with the word is new evidence.
    expect(l.observed('claude', [{ query: 'buy a monitor', tool: 'browser_navigate', ts: NOW + 3_600_000 }])).toBe(1);
    expect(words(l, 'browser_navigate')).toContain('monitor');
  });
});
