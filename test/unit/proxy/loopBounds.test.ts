// Work per request bounded on the event loop: a tools/call with 300,000 unknown
// argument keys (3.5 MB) held every agent ~1.5 s, most of it ajv making one error object per key.
// Measured as CPU time of the call through the router (the test's own JSON parse not included), with
// a bound generous for a busy 2-core machine (~4× what it takes there) that the old path exceeded
// several times over (2.9 s of CPU on the same machine).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Tool } from '@modelcontextprotocol/client';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { ArgumentValidator, FULL_CHECK_MAX_VALUES, hasMoreValuesThan } from '../../../src-main/core/proxy/argValidation.js';
import { TwinUpstream } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const strict: Tool = {
  name: 'strict',
  inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
  annotations: { readOnlyHint: true },
};
const manyKeys = (n: number) => {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[`k${i}`] = i;
  return o;
};
const cpuMs = async (f: () => Promise<unknown>) => {
  const c = process.cpuUsage();
  await f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};

describe('argument validation of a flood of keys', () => {
  it('answers the first problem of 300,000 unknown keys in bounded time, and still lists every problem of a normal call', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-flood-'));
    const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
    const twin = new TwinUpstream('v', [strict]);
    app = createApp({ config, clock: new ManualClock(), log: new MemoryLogger(), connect: () => twin });
    await app.start({ listen: false, schedule: false });
    const ctx = { via: 'direct' as const, client: 'test', session: undefined };
    const call = (args: Record<string, unknown>) => app!.router.callTool('default', 'v__strict', args, ctx);
    // The validator library loads and compiles on first use, as in a running proxy.
    await call({ a: 'x' });
    await call(manyKeys(2_000));

    const flood = manyKeys(300_000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    await new Promise((r) => setTimeout(r, 30));
    let answer = '';
    const ms = await cpuMs(async () => {
      const r = await call(flood);
      answer = JSON.stringify(r.content);
      expect(r.isError).toBe(true);
    });
    delay.disable();
    expect(answer).toMatch(/do not match its input schema \(they hold more than 1000 values; the first problem\)/);
    expect(twin.calls.filter((c) => c.name === 'strict')).toHaveLength(1); // never forwarded
    expect(ms, `CPU for one call with 300,000 unknown keys; loop delay max ${(delay.max / 1e6).toFixed(0)} ms`).toBeLessThan(1_000);

    // A call of ordinary size still hears every problem at once.
    const few = await call({ b: 1, c: 2 });
    expect(JSON.stringify(few.content)).toMatch(/"a\\" is required; \\"b\\" is not a parameter of this tool; \\"c\\" is not a parameter/);
  }, 60_000);

  it('counts values without walking past the bound', () => {
    expect(hasMoreValuesThan({ a: [1, 2, { b: 3 }] }, 5)).toBe(false);
    expect(hasMoreValuesThan({ a: Array.from({ length: 10 }, () => ({})) }, 5)).toBe(true);
    expect(hasMoreValuesThan(manyKeys(FULL_CHECK_MAX_VALUES + 1), FULL_CHECK_MAX_VALUES)).toBe(true);
    const v = new ArgumentValidator();
    const entry = { name: 't', hash: 'h', vendor: 'v', remoteName: 't', tool: strict, readOnly: true, destructive: false };
    expect(v.check(entry, manyKeys(FULL_CHECK_MAX_VALUES + 1))).toMatch(/the first problem\): "a" is required\./);
  });
});

describe('search while a large toolbox is being indexed', () => {
  it('search_tools and unknown names wait for (or skip) the build in slices rather than finishing it at once on the loop', async () => {
    const { Toolbox } = await import('../../../src-main/core/toolbox/toolbox.js');
    const { SearchService } = await import('../../../src-main/core/search/service.js');
    const { searchToolsHandler } = await import('../../../src-main/core/metaTools/searchTools.js');
    const { generateCatalog } = await import('../../../bench/genCatalog.js');
    const box = new Toolbox(new Map([['v', generateCatalog(10_000).tools]]), true);
    const search = new SearchService(() => box);
    const handler = searchToolsHandler({ search, listed: () => [], callLog: { search: () => {} } as never, clock: new ManualClock() });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // The monitor's timer must be running before a stall can be seen.
    await new Promise((r) => setTimeout(r, 30));
    const warming = search.warmInSlices();
    // Asked at once, as a client would right after the toolbox changed.
    // A synchronous call holds the loop for exactly its own length.
    const t0 = performance.now();
    expect(search.closeNames('v__github_delete_isue', 3)).toEqual([]);
    expect(performance.now() - t0, 'an unknown name looked up while 10,000 tools are indexed').toBeLessThan(100);
    // The handler's synchronous part (up to its first await) holds the loop: it must not be the build.
    const t1 = performance.now();
    const pending = handler('default', { query: 'delete a github issue' }, { via: 'direct', client: 't', session: undefined });
    expect(performance.now() - t1, 'search_tools asked while 10,000 tools are indexed, before its first await').toBeLessThan(200);
    const r = await pending;
    await warming;
    delay.disable();
    expect(JSON.parse((r.content[0] as { text: string }).text).results[0].name).toMatch(/^v__github_delete_issue/);
    // Slices are ~4 ms; a build finished at once held the loop for the whole build (5–7 s on a busy
    // 2-core machine). The bound is loose: on such a machine the OS alone stalls a process ~0.8 s.
    expect(delay.max / 1e6, 'longest event-loop stall while 10,000 tools were indexed and searched').toBeLessThan(3_000);
    expect(search.closeNames('v__github_delete_isue', 3)[0]).toMatch(/github_delete_issue/);
  }, 120_000);
});
