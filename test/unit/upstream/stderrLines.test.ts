import { describe, expect, it } from 'vitest';
import { StderrLines } from '../../../src-main/core/upstream/stderrLines.js';
import { StderrTail } from '../../../src-main/core/upstream/stderrTail.js';
import { UpstreamJournal } from '../../../src-main/core/upstream/journal.js';

describe('stderr split into lines', () => {
  it('joins a line split across chunks, drops colour codes and blank lines, and bounds a line that never ends', () => {
    const s = new StderrLines(10);
    expect(s.push('first li')).toEqual([]);
    expect(s.open).toBe('first li');
    expect(s.push('ne\r\n\x1b[31mred\x1b[0m  \n   \n')).toEqual(['first line', 'red']);
    expect(s.open).toBe('');
    s.push('x'.repeat(100));
    expect(s.open).toBe('x'.repeat(10));
  });

  it('reads the same in the status tail and the upstream log', () => {
    const tail = new StderrTail();
    const journal = new UpstreamJournal(() => 0);
    for (const chunk of ['GITHUB_TOK', 'EN is not set\n\x1b[2mexiting\x1b[0m\n', 'still writ']) {
      tail.push(chunk);
      journal.stderr(chunk);
    }
    expect(tail.lines()).toEqual(['GITHUB_TOKEN is not set', 'exiting', 'still writ']);
    expect(journal.entries().map((e) => e.text)).toEqual(tail.lines());
  });
});
