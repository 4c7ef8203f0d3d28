// Config edits are merges, never overwrites (issue 10, item 2): the window's edits go into the file as it
// is on disk now, hand edits are picked up live and never lost, masked secrets round-trip unchanged,
// and an edited stdio upstream keeps its env and working folder.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { startAppFromFile, type FileApp } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { failure, statusOf } from '../../src-main/core/control/envelope.js';

const apps: FileApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.stop();
});
async function app(raw: Record<string, unknown>): Promise<FileApp> {
  const a = await startAppFromFile(raw);
  apps.push(a);
  return a;
}
const onDisk = (a: FileApp) => JSON.parse(readFileSync(a.configPath, 'utf8')) as Record<string, any>;

describe('editing an upstream', () => {
  const stdio = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { API_TOKEN: 'secret-1' }, cwd: '/tmp' };

  it('keeps a stdio upstream\'s env (its secrets) and cwd when the edit does not show them', async () => {
    const a = await app({ upstreams: { s: stdio }, timeouts: { listMs: 500 } });
    await a.app.control.saveUpstream({ vendor: 's', upstream: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 2000)'] }, replace: true });
    expect(onDisk(a).upstreams.s).toEqual({ ...stdio, args: ['-e', 'setInterval(() => {}, 2000)'] });
  });

  it('keeps a masked secret unchanged, and takes a newly typed one', async () => {
    const a = await app({ upstreams: { s: stdio }, timeouts: { listMs: 500 } });
    const row = (await a.app.control.upstreams({})).find((r) => r.vendor === 's')!;
    expect(row.config).toMatchObject({ env: { API_TOKEN: '••••' }, cwd: '/tmp' });
    await a.app.control.saveUpstream({ vendor: 's', upstream: row.config as never, replace: true });
    expect(onDisk(a).upstreams.s.env).toEqual({ API_TOKEN: 'secret-1' });
    await a.app.control.saveUpstream({ vendor: 's', upstream: { ...(row.config as object), env: { API_TOKEN: 'secret-2', MORE: 'x' } } as never, replace: true });
    expect(onDisk(a).upstreams.s.env).toEqual({ API_TOKEN: 'secret-2', MORE: 'x' });
  });

  it('tests an edited HTTP upstream with its saved header, not an empty one', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const srv = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401).end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/mcp`;
    try {
      const a = await app({ upstreams: { h: { url, headers: { Authorization: 'Bearer real-token' } } }, timeouts: { listMs: 2000 } });
      const row = (await a.app.control.upstreams({})).find((r) => r.vendor === 'h')!;
      expect(row.config).toEqual({ url, headers: { Authorization: '••••' } });
      seen.length = 0;
      await a.app.control.testUpstream({ vendor: 'h', upstream: row.config as never });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((h) => h.authorization === 'Bearer real-token')).toBe(true);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

describe('hand edits to config.json while the app runs', () => {
  it('are picked up live', async () => {
    const a = await app({ upstreams: { demo: { builtin: 'demo' } } });
    const raw = onDisk(a);
    writeFileSync(a.configPath, JSON.stringify({ ...raw, agents: [{ id: 'default' }, { id: 'hand', cap: 3 }] }, null, 2));
    // The config is applied before the agent's endpoint opens (its state is loaded in between): wait for both.
    await until(() => a.app.config.agents.some((x) => x.id === 'hand') && a.app.endpoints.has('hand'), 'the hand-added agent to be live');
    expect(a.app.config.agents.find((x) => x.id === 'hand')?.cap).toBe(3);
  });

  it('are never overwritten by the next save from the window', async () => {
    const a = await app({ upstreams: { demo: { builtin: 'demo' } }, agents: [{ id: 'default', cap: 10 }] });
    const raw = onDisk(a);
    // A hand edit the running app has not even seen yet: the window's save must merge into it.
    writeFileSync(a.configPath, JSON.stringify({ ...raw, compactDescriptions: true, agents: [...raw.agents, { id: 'hand' }] }, null, 2));
    await a.app.control.updateAgent({ id: 'default', cap: 7 });
    const after = onDisk(a);
    expect(after.compactDescriptions).toBe(true);
    expect(after.agents).toEqual([{ id: 'default', cap: 7 }, { id: 'hand' }]);
  });

  it('that are invalid leave the running settings as they were, with a warning, and the file as written', async () => {
    const a = await app({ upstreams: { demo: { builtin: 'demo' } } });
    const bad = JSON.stringify({ ...onDisk(a), agents: [{ id: 'default', cap: 9000 }] });
    writeFileSync(a.configPath, bad);
    await until(() => a.log.lines.some((l) => l.includes('was edited but is not valid')), 'a warning about the invalid hand edit');
    expect(a.app.config.agents.find((x) => x.id === 'default')?.cap).toBe(20);
    expect(readFileSync(a.configPath, 'utf8')).toBe(bad);
  });
});

describe('no edit lost without a word (issue 22, item 1)', () => {
  const memory = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { MEMORY_FILE_PATH: '/home/d/memory.json' } };

  it('adding under a name that exists is refused with a sentence (409 upstream_exists); replacing says so, and keeps a .bak', async () => {
    const a = await app({ upstreams: { memory }, timeouts: { listMs: 500 } });
    const before = readFileSync(a.configPath, 'utf8');
    await expect(a.app.control.saveUpstream({ vendor: 'memory', upstream: { url: 'http://127.0.0.1:9/mcp' } })).rejects.toMatchObject({
      code: 'upstream_exists', message: expect.stringMatching(/^An upstream named "memory" already exists; nothing was changed\./),
    });
    expect(statusOf(failure('upstream_exists', ''))).toBe(409);
    expect(readFileSync(a.configPath, 'utf8')).toBe(before);
    await a.app.control.saveUpstream({ vendor: 'memory', upstream: { url: 'http://127.0.0.1:9/mcp' }, replace: true });
    expect(onDisk(a).upstreams.memory).toEqual({ url: 'http://127.0.0.1:9/mcp' });
    const baks = readdirSync(dirname(a.configPath)).filter((f) => /^config\.json\..+\.bak$/.test(f));
    expect(baks).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dirname(a.configPath), baks[0]!), 'utf8')).upstreams.memory).toEqual(memory);
  });

  it('every edit keeps a backup, the newest 20 of them', async () => {
    const a = await app({ timeouts: { listMs: 500 } });
    let t = Date.parse('2026-12-01T10:00:00Z');
    const realNow = Date.now;
    Date.now = () => (t += 1000); // the app's clock is the system clock here: each backup gets its own second
    try {
      for (let i = 0; i < 23; i++) await a.app.control.updateSettings({ compactDescriptions: i % 2 === 0 });
    } finally {
      Date.now = realNow;
    }
    expect(readdirSync(dirname(a.configPath)).filter((f) => f.endsWith('.bak'))).toHaveLength(20);
  });
});

describe('General → Save and the port (issue 22, item 3)', () => {
  it('shows and keeps the config file\'s port, not the one this run listens on', async () => {
    const a = await app({ timeouts: { listMs: 500 } });
    writeFileSync(a.configPath, JSON.stringify({ ...onDisk(a), listen: { host: '127.0.0.1', port: 4499 } }, null, 2));
    // The running instance listens on an OS-assigned port (as with --port); the file says 4499.
    await until(async () => (await a.app.control.settings({})).port === 4499, 'the hand edit to be read');
    const s = await a.app.control.settings({});
    await a.app.control.updateSettings({ port: s.port, compactDescriptions: true });
    expect(onDisk(a).listen.port).toBe(4499);
    // Import writes client entries for that port too: the one that is right after a restart.
    const r = await a.app.control.importServers({ file: writeClientFile(a), dryRun: true });
    expect(r.clientEdit.url).toBe('http://127.0.0.1:4499/mcp');
  });
});

function writeClientFile(a: FileApp): string {
  const file = join(dirname(a.configPath), 'cursor-mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { one: { command: 'echo', args: ['1'] } } }));
  return file;
}
