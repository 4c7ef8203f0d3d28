// Real servers on a bad day: slow to start, dying with a reason on stderr, answering too much.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { META_TOOL_NAMES } from '../../src-main/core/toolbox/reservedNames.js';
import { FIXTURES, ROOT, spawnTs, tsxArgs } from '../helpers/processes.js';
import { connectClient, startApp, tempDir, textOf, type TestApp, type TestClient } from '../helpers/app.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});
async function app(raw: Record<string, unknown>): Promise<TestApp> {
  const t = await startApp(raw);
  cleanups.push(() => t.stop());
  return t;
}
async function client(url: string, mode: 'auto' | 'legacy' = 'auto'): Promise<TestClient> {
  const c = await connectClient(url, mode);
  cleanups.push(() => c.close());
  return c;
}
function rough(env: Record<string, string>): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: tsxArgs(join(FIXTURES, 'rough.ts')), env };
}
function spawnLog(): { path: string; pids: () => string[] } {
  const path = join(tempDir(), 'spawns.log');
  writeFileSync(path, '');
  return { path, pids: () => readFileSync(path, 'utf8').split('\n').filter(Boolean) };
}

describe('an upstream that starts slower than the list budget', () => {
  it('keeps starting in the background, shows "starting", and is listed when up without any client action; spawned once', async () => {
    const log = spawnLog();
    const t = await app({
      upstreams: { slow: rough({ ROUGH_START_DELAY_MS: '4000', ROUGH_SPAWN_LOG: log.path }) },
      pins: ['slow__echo'],
      timeouts: { listMs: 300 },
      agents: [{ id: 'default', approvals: 'allow' }],
    });
    const c = await client(`${t.url}/mcp`);
    expect((await c.client.listTools()).tools.map((x) => x.name)).toEqual([...META_TOOL_NAMES]);
    const status = t.app.catalog.statuses()[0]!;
    expect(status.status).toBe('starting');
    expect(status.lastError).toMatch(/starting for \d+ s/);
    // The list_changed the client hears once the server is up (an event, not a sleep).
    const listed = await c.until((tools) => tools.some((x) => x.name === 'slow__echo'));
    expect(listed.map((x) => x.name)).toContain('slow__echo');
    expect(t.app.catalog.statuses()[0]!.status).toBe('up');
    expect(textOf(await c.client.callTool({ name: 'slow__echo', arguments: { text: 'hi' } }))).toBe('hi');
    // One process for the server: no second spawn for a version probe.
    expect(log.pids()).toHaveLength(1);
  }, 60_000);
});

describe('a stdio server that speaks only 2026-07-28', () => {
  it('is connected in the revision its initialize answer names', async () => {
    const log = spawnLog();
    const t = await app({
      upstreams: { m: rough({ ROUGH_MODERN_ONLY: '1', ROUGH_SPAWN_LOG: log.path }) },
      pins: ['m__echo'],
      agents: [{ id: 'default', approvals: 'allow' }],
      timeouts: { listMs: 20_000 },
    });
    await t.app.router.ready();
    expect(t.app.catalog.statuses()[0]).toMatchObject({ status: 'up', era: '2026-07-28' });
    const c = await client(`${t.url}/mcp`);
    expect(textOf(await c.client.callTool({ name: 'm__echo', arguments: { text: 'modern' } }))).toBe('modern');
    // One spawn for the refused 2025 opening, one for the revision it named: never a probe per start.
    expect(log.pids()).toHaveLength(2);
  }, 60_000);
});

describe('an upstream that prints a reason on stderr and exits', () => {
  it('is "down" with the reason from its stderr, and is retried with backoff', async () => {
    const log = spawnLog();
    const t = await app({
      upstreams: { gh: rough({ ROUGH_EXIT_MESSAGE: 'GITHUB_TOKEN is not set', ROUGH_SPAWN_LOG: log.path }) },
      timeouts: { listMs: 20_000 },
    });
    await t.app.router.ready();
    const s = t.app.catalog.statuses()[0]!;
    expect(s.status).toBe('down');
    expect(s.lastError).toMatch(/GITHUB_TOKEN is not set/);
    expect(s.stderr).toContain('GITHUB_TOKEN is not set');
    // Retried without any client action.
    await vi.waitFor(() => expect(log.pids().length).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 100 });
  }, 60_000);
});

describe('results over the size limit', () => {
  it('are answered with a sentence; the connection and a sibling call in flight survive', async () => {
    const t = await app({
      upstreams: { r: rough({}) },
      maxResultBytes: 1024 * 1024,
      pins: ['r__big', 'r__slow', 'r__echo'],
      agents: [{ id: 'default', approvals: 'allow' }],
    });
    const c = await client(`${t.url}/mcp`);
    const sibling = c.client.callTool({ name: 'r__slow', arguments: { ms: 1500 } });
    await expect(c.client.callTool({ name: 'r__big', arguments: { bytes: 2 * 1024 * 1024 } })).rejects.toThrow(
      /larger than the 1 MB limit.*maxResultBytes/,
    );
    expect(textOf(await sibling)).toBe('slow done');
    expect(textOf(await c.client.callTool({ name: 'r__big', arguments: { bytes: 1000 } }))).toHaveLength(1000);
    expect(t.app.catalog.statuses()[0]!.status).toBe('up');
  }, 60_000);

  it("by default passes a 12 MiB stdio result (over the SDK's own 10 MiB limit)", async () => {
    const t = await app({ upstreams: { r: rough({}) }, pins: ['r__big'], agents: [{ id: 'default', approvals: 'allow' }] });
    const c = await client(`${t.url}/mcp`);
    const text = textOf(await c.client.callTool({ name: 'r__big', arguments: { bytes: 12 * 1024 * 1024 } }));
    expect(text.length).toBe(12 * 1024 * 1024);
  }, 60_000);
});

describe('mws search with no instance running', () => {
  it('waits for a slow upstream to start, and says which upstream is down and why', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        stateDir: join(dir, 'state'),
        timeouts: { listMs: 300 },
        upstreams: { slow: rough({ ROUGH_START_DELAY_MS: '3000' }), gh: rough({ ROUGH_EXIT_MESSAGE: 'GITHUB_TOKEN is not set' }) },
      }),
    );
    const cli = spawnTs(join(ROOT, 'src-main', 'cli', 'run.ts'), ['search', 'echo the text', '--config', config]);
    cleanups.push(() => cli.kill());
    const code = await new Promise<number | null>((resolve) => cli.proc.once('exit', resolve));
    expect(code, cli.stderr()).toBe(0);
    expect(cli.stdout()).toContain('slow__echo');
    expect(cli.stderr()).toMatch(/upstream "gh" is down: .*GITHUB_TOKEN is not set/);
  }, 90_000);
});
