// Reports come from caches: history counts re-read only after a change, token counts kept in the state
// folder so a restarted core tokenizes nothing it has counted before (issue 11, item 6).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, tempDir, type TestApp } from '../helpers/app.js';
import { countHistory, tokenizerStats } from '../../src-main/core/control/report/report.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const demo = { upstreams: { demo: { builtin: 'demo' } } };

describe('the report', () => {
  it('shows a promotion or demotion made since the last report (the history cache follows changes)', async () => {
    t = await startApp(demo);
    await t.app.router.ready();
    const before = (await t.app.control.report({ agent: 'default' }))[0]!;
    expect(before.history).toEqual(countHistory(await t.app.control.history({ agent: 'default' })));
    await t.app.control.promote({ agent: 'default', tool: 'demo__drive_search_files' });
    const promoted = (await t.app.control.report({ agent: 'default' }))[0]!;
    expect(promoted.history.user?.promote).toBe((before.history.user?.promote ?? 0) + 1);
    await t.app.control.demote({ agent: 'default', tool: 'demo__drive_search_files' });
    const demoted = (await t.app.control.report({ agent: 'default' }))[0]!;
    expect(demoted.history.user).toEqual({
      promote: (before.history.user?.promote ?? 0) + 1,
      demote: (before.history.user?.demote ?? 0) + 1,
    });
    expect(demoted.history).toEqual(countHistory(await t.app.control.history({ agent: 'default' })));
  });

  it('after a restart, tokenizes nothing it counted before: the counts are in the state folder', async () => {
    const stateDir = tempDir();
    t = await startApp(demo, stateDir);
    await t.app.router.ready();
    const first = await t.app.control.report({});
    await t.stop();
    expect(existsSync(join(stateDir, 'token-counts.json'))).toBe(true);
    const tokenizedBefore = tokenizerStats().tokenized;
    // A new core on the same folder: new tool objects, the same definitions.
    t = await startApp(demo, stateDir);
    await t.app.router.ready();
    const again = await t.app.control.report({});
    expect(tokenizerStats().tokenized).toBe(tokenizedBefore);
    expect(again.map((r) => [r.listedTokens, r.toolboxTokens])).toEqual(first.map((r) => [r.listedTokens, r.toolboxTokens]));
  });
});
