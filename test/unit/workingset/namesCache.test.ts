// An agent's names in listing order are kept between changes (a report asks for every agent's), and
// are never stale: a promotion, a demotion, or a new seed pin gives a new answer at once.
import { describe, expect, it } from 'vitest';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setsHarness } from '../../helpers/sets.js';
import { WORKING_SET_FILE } from '../../../src-main/core/workingset/seedFile.js';

describe('WorkingSets.names', () => {
  it('answers the same list while nothing changed, and a new one after every change', async () => {
    const h = await setsHarness({ pins: ['a'] });
    const first = h.sets.names('default');
    expect(first).toEqual(['a']);
    expect(h.sets.names('default')).toBe(first);

    await h.sets.promote('default', 'b', 'v', 'user');
    const promoted = h.sets.names('default');
    expect(promoted).not.toBe(first);
    expect(promoted).toContain('b');

    await h.sets.demote('default', 'b', 'user');
    expect(h.sets.names('default')).not.toContain('b');

    // A pin in working-set.json (the seed) is part of the order too.
    const seed = join(h.stateDir, WORKING_SET_FILE);
    writeFileSync(seed, JSON.stringify({ pinned: ['c'] }));
    utimesSync(seed, new Date(), new Date(Date.now() + 5_000));
    expect(h.sets.names('default')).toContain('c');
    await h.close();
  });
});
