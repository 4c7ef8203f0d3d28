// The app with the real shipped model: nothing loaded until search is first used, the demo's tools
// embedded in the background and cached in the state folder, the state in the control API's status.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, tempDir, type TestApp } from '../helpers/app.js';
import { withDeadline } from '../helpers/wait.js';
import { VECTOR_CACHE_FILE } from '../../src-main/core/search/embed/vectorCache.js';
import { validateConfig } from '../../src-main/core/config/validate.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('semantic search in the app', () => {
  it('is idle until activated, then ready with every demo tool embedded and cached; a restart reads the cache', async () => {
    const stateDir = tempDir();
    t = await startApp({ upstream: { builtin: 'demo' } }, stateDir);
    expect((await t.app.control.status({})).semanticSearch).toMatchObject({ state: 'idle', embedded: 0, warning: undefined });
    t.app.vectors.activate();
    await withDeadline(t.app.vectors.idle(), 'the demo tools to be embedded', 120_000);
    const s = (await t.app.control.status({})).semanticSearch!;
    expect(s.state).toBe('ready');
    expect(s.embedded).toBe(s.total);
    expect(s.total).toBeGreaterThan(20);
    expect(existsSync(join(stateDir, VECTOR_CACHE_FILE))).toBe(true);

    const entries = [...t.app.catalog.toolbox().all()];
    const best = async (query: string) => {
      const q = (await t!.app.vectors.embedQuery(query))!;
      return entries.map((e) => ({ name: e.name, s: dot(q, t!.app.vectors.vector(e)!) })).sort((a, b) => b.s - a.s)[0]!.name;
    };
    expect(await best('write to bob about the invoice')).toMatch(/^mail_/);
    expect(await best('put a meeting with alice on tuesday')).toMatch(/^calendar_/);
    await t.stop();

    t = await startApp({ upstream: { builtin: 'demo' } }, stateDir);
    t.app.vectors.activate();
    await withDeadline(t.app.vectors.idle(), 'the cached vectors to load', 60_000);
    expect((await t.app.control.status({})).semanticSearch).toMatchObject({ state: 'ready', embedded: s.total, total: s.total });
    expect(t.log.lines.filter((l) => l.startsWith('warn:'))).toEqual([]);
  }, 180_000);

  it('search.model chooses another shipped model (bge-small-en): its vectors, its cache; an unknown name is refused with a sentence', async () => {
    const stateDir = tempDir();
    t = await startApp({ upstream: { builtin: 'demo' }, search: { model: 'bge-small-en-int8' } }, stateDir);
    t.app.vectors.activate();
    await withDeadline(t.app.vectors.idle(), 'the demo tools to be embedded by bge-small-en', 120_000);
    expect(t.app.vectors.model()).toBe('bge-small-en-int8');
    expect((await t.app.control.status({})).semanticSearch).toMatchObject({ state: 'ready', warning: undefined });
    const entries = [...t.app.catalog.toolbox().all()];
    const q = (await t.app.vectors.embedQuery('write to bob about the invoice'))!;
    const top = entries.map((e) => ({ name: e.name, s: dot(q, t!.app.vectors.vector(e)!) })).sort((a, b) => b.s - a.s)[0]!.name;
    expect(top).toMatch(/^mail_/);
    await t.stop();
    t = undefined;
    expect(() => validateConfig({ search: { model: 'text-embedding-3-large' } }, tempDir())).toThrow(
      /"search\.model" must be one of the shipped models: all-minilm-l6-v2-int8, bge-small-en-int8/,
    );
  }, 180_000);
});
