// Config edits are merges, never overwrites: the window's edits go into the file as it
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
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads back whatever JSON the app wrote, at any depth
const onDisk = (a: FileApp) => JSON.parse(readFileSync(a.configPath, 'utf8')) as Record<string, any>;
/** An HTTP upstream that answers 401 and records the headers it was sent. */
async function refusingServer() {
  const seen: IncomingHttpHeaders[] = [];
  const srv = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401).end();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return { seen, srv, url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/mcp` };
}
const secretsOnDisk = (a: FileApp) =>
  (JSON.parse(readFileSync(join(a.stateDir, 'secrets.json'), 'utf8')) as { secrets: Record<string, string> }).secrets;

describe('editing an upstream', () => {
  const stdio = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { API_TOKEN: 'secret-1' }, cwd: '/tmp' };

  it("keeps a stdio upstream's env (its secrets) and cwd when the edit does not show them", async () => {
    const a = await app({ upstreams: { s: stdio }, timeouts: { listMs: 500 } });
    await a.app.control.saveUpstream({
      vendor: 's',
      upstream: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 2000)'] },
      replace: true,
    });
    // Kept, and (saved from the window) moved to the secret store: the file names it by reference.
    expect(onDisk(a).upstreams.s).toEqual({
      ...stdio,
      env: { API_TOKEN: '${secret:upstreams.s.env.API_TOKEN}' },
      args: ['-e', 'setInterval(() => {}, 2000)'],
    });
    expect(secretsOnDisk(a)).toEqual({ 'upstreams.s.env.API_TOKEN': 'secret-1' });
  });

  it('keeps a masked secret unchanged, and takes a newly typed one', async () => {
    const a = await app({ upstreams: { s: stdio }, timeouts: { listMs: 500 } });
    const row = (await a.app.control.upstreams({})).find((r) => r.vendor === 's')!;
    expect(row.config).toMatchObject({ env: { API_TOKEN: '••••' }, cwd: '/tmp' });
    await a.app.control.saveUpstream({ vendor: 's', upstream: row.config as never, replace: true });
    expect(onDisk(a).upstreams.s.env).toEqual({ API_TOKEN: '${secret:upstreams.s.env.API_TOKEN}' });
    expect(secretsOnDisk(a)).toEqual({ 'upstreams.s.env.API_TOKEN': 'secret-1' });
    // Masked again, it still keeps the saved one (now the reference).
    const again = (await a.app.control.upstreams({})).find((r) => r.vendor === 's')!;
    expect(again.config).toMatchObject({ env: { API_TOKEN: '••••' } });
    await a.app.control.saveUpstream({ vendor: 's', upstream: again.config as never, replace: true });
    expect(secretsOnDisk(a)).toEqual({ 'upstreams.s.env.API_TOKEN': 'secret-1' });
    await a.app.control.saveUpstream({
      vendor: 's',
      upstream: { ...(row.config as object), env: { API_TOKEN: 'secret-2', MORE: 'x' } } as never,
      replace: true,
    });
    expect(onDisk(a).upstreams.s.env).toEqual({ API_TOKEN: '${secret:upstreams.s.env.API_TOKEN}', MORE: 'x' });
    expect(secretsOnDisk(a)).toEqual({ 'upstreams.s.env.API_TOKEN': 'secret-2' });
    expect(readFileSync(a.configPath, 'utf8')).not.toMatch(/secret-[12]/);
  });

  it('tests an edited HTTP upstream with its saved header, not an empty one', async () => {
    const { seen, srv, url } = await refusingServer();
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

describe('secrets out of config.json', () => {
  const stdio = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: { API_TOKEN: 'secret-1' }, cwd: '/tmp' };
  it('`migrateSecrets` moves plain secret values to the store; the upstream still connects with them', async () => {
    const { seen, srv, url } = await refusingServer();
    try {
      const a = await app({
        upstreams: { h: { url, headers: { Authorization: 'Bearer real-token', Accept: 'application/json, text/event-stream' } }, s: stdio },
        timeouts: { listMs: 2000 },
      });
      const r = await a.app.control.migrateSecrets({});
      expect(r.moved).toEqual(['upstreams.h.headers.Authorization', 'upstreams.s.env.API_TOKEN']);
      const text = readFileSync(a.configPath, 'utf8');
      expect(text).not.toMatch(/real-token|secret-1/);
      expect(onDisk(a).upstreams.h.headers).toEqual({
        Authorization: '${secret:upstreams.h.headers.Authorization}',
        Accept: 'application/json, text/event-stream',
      });
      expect((await a.app.control.secretNames({})).names).toEqual(['upstreams.h.headers.Authorization', 'upstreams.s.env.API_TOKEN']);
      expect(await a.app.control.migrateSecrets({})).toEqual({ moved: [] });
      // Resolved when connecting: the server gets the real header.
      await until(() => seen.some((h) => h.authorization === 'Bearer real-token'), 'the reconnected upstream to send the stored header');
      expect(seen.some((h) => h.authorization?.includes('${secret'))).toBe(false);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  it('a window save keeps an imported bearerTokenEnvVar and envFile the form does not show', async () => {
    const a = await app({
      upstreams: {
        f: { url: 'http://127.0.0.1:9/mcp', bearerTokenEnvVar: 'FIGMA_TOKEN_UNSET_HERE' },
        s: { ...stdio, envFile: '/tmp/none.env' },
      },
      timeouts: { listMs: 500 },
    });
    const f = await until(
      async () => (await a.app.control.upstreams({})).find((r) => r.vendor === 'f' && r.status !== 'starting'),
      'f to have started or to wait',
    );
    expect(f).toMatchObject({
      status: 'needs-value',
      needs: ['FIGMA_TOKEN_UNSET_HERE'],
      config: { bearerTokenEnvVar: 'FIGMA_TOKEN_UNSET_HERE' },
    });
    await a.app.control.saveUpstream({ vendor: 'f', upstream: { url: 'http://127.0.0.1:9/mcp2' }, replace: true });
    await a.app.control.saveUpstream({ vendor: 's', upstream: { command: process.execPath, args: ['-e', '1'] }, replace: true });
    expect(onDisk(a).upstreams.f).toEqual({ url: 'http://127.0.0.1:9/mcp2', bearerTokenEnvVar: 'FIGMA_TOKEN_UNSET_HERE' });
    expect(onDisk(a).upstreams.s.envFile).toBe('/tmp/none.env');
  });

  it('`setUpstreamValue` for a header the upstream lacks stores it and writes a reference; the answer holds no value', async () => {
    const a = await app({ upstreams: { h: { url: 'http://127.0.0.1:9/mcp' } }, timeouts: { listMs: 500 } });
    const r = await a.app.control.setUpstreamValue({ vendor: 'h', key: 'X-Api-Key', value: 'k-123456' });
    expect(r).toMatchObject({ vendor: 'h', key: 'X-Api-Key', stored: 'secret', secret: 'upstreams.h.headers.X-Api-Key' });
    expect(JSON.stringify(r)).not.toContain('k-123456');
    expect(onDisk(a).upstreams.h.headers).toEqual({ 'X-Api-Key': '${secret:upstreams.h.headers.X-Api-Key}' });
    expect(secretsOnDisk(a)).toEqual({ 'upstreams.h.headers.X-Api-Key': 'k-123456' });
    await expect(a.app.control.setUpstreamValue({ vendor: 'nope', key: 'K', value: 'v' })).rejects.toThrow(/No upstream "nope"/);
    await expect(a.app.control.setUpstreamValue({ vendor: 'h', key: 'bad key', value: 'v' })).rejects.toThrow(
      /is not a value upstream "h" asks for/,
    );
    await expect(a.app.control.setUpstreamValue({ vendor: 'h', key: '__proto__', value: 'v' })).rejects.toThrow(
      /is not a value upstream "h" asks for/,
    );
  });

  it("a key on a stdio upstream's command line (`--api-key KEY`, `--token=KEY`) is masked in the rows, and a save sent back masked keeps it, in the secret store", async () => {
    const args = [
      '-y',
      '@upstash/context7-mcp',
      '--api-key',
      'c7-arg-secret-1',
      '--token=tok-arg-secret-2',
      '--region',
      'eu',
      '--key',
      '${input:k}',
    ];
    const a = await app({ upstreams: { c: { command: process.execPath, args } }, timeouts: { listMs: 500 } });
    const rows = await a.app.control.upstreams({});
    const shown = rows.find((r) => r.vendor === 'c')!.config as { args: string[] };
    expect(shown.args).toEqual([
      '-y',
      '@upstash/context7-mcp',
      '--api-key',
      '••••',
      '--token=••••',
      '--region',
      'eu',
      '--key',
      '${input:k}',
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/arg-secret/);
    // The form sends back what it showed, with one argument added in front.
    await a.app.control.saveUpstream({
      vendor: 'c',
      upstream: { command: process.execPath, args: ['--quiet', ...shown.args] },
      replace: true,
    });
    // The saved values are kept, and the save moves them to the secret store as it does headers and env.
    expect(onDisk(a).upstreams.c.args).toEqual([
      '--quiet',
      '-y',
      '@upstash/context7-mcp',
      '--api-key',
      '${secret:upstreams.c.args.api-key}',
      '--token=${secret:upstreams.c.args.token}',
      '--region',
      'eu',
      '--key',
      '${input:k}',
    ]);
    expect(JSON.stringify(onDisk(a))).not.toMatch(/arg-secret/);
  });

  it("`removeUpstream` deletes its secrets (the next upstream of that name must not read them), and no other's", async () => {
    const a = await app({
      upstreams: { h: { url: 'http://127.0.0.1:9/mcp' }, hh: { url: 'http://127.0.0.1:9/mcp' } },
      timeouts: { listMs: 500 },
    });
    await a.app.control.setUpstreamValue({ vendor: 'h', key: 'X-Api-Key', value: 'k-of-h-1234' });
    await a.app.control.setUpstreamValue({ vendor: 'hh', key: 'X-Api-Key', value: 'k-of-hh-1234' });
    await a.app.control.removeUpstream({ vendor: 'h' });
    expect(secretsOnDisk(a)).toEqual({ 'upstreams.hh.headers.X-Api-Key': 'k-of-hh-1234' });
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

describe('no edit lost without a word', () => {
  const memory = {
    command: process.execPath,
    args: ['-e', 'setInterval(() => {}, 1000)'],
    env: { MEMORY_FILE_PATH: '/home/d/memory.json' },
  };

  it('adding under a name that exists is refused with a sentence (409 upstream_exists); replacing says so, and keeps a .bak', async () => {
    const a = await app({ upstreams: { memory }, timeouts: { listMs: 500 } });
    const before = readFileSync(a.configPath, 'utf8');
    await expect(a.app.control.saveUpstream({ vendor: 'memory', upstream: { url: 'http://127.0.0.1:9/mcp' } })).rejects.toMatchObject({
      code: 'upstream_exists',
      message: expect.stringMatching(/^An upstream named "memory" already exists; nothing was changed\./),
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

describe('General → Save and the port', () => {
  it("shows and keeps the config file's port, not the one this run listens on", async () => {
    const a = await app({ timeouts: { listMs: 500 } });
    writeFileSync(a.configPath, JSON.stringify({ ...onDisk(a), listen: { host: '127.0.0.1', port: 4499 } }, null, 2));
    // The running instance listens on an OS-assigned port (as with --port); the file says 4499.
    await until(async () => (await a.app.control.settings({})).port === 4499, 'the hand edit to be read');
    const s = await a.app.control.settings({});
    await a.app.control.updateSettings({ port: s.port, compactDescriptions: true });
    expect(onDisk(a).listen.port).toBe(4499);
    // Import writes client entries for the port this instance listens on: the one a client reaches now.
    const r = await a.app.control.importServers({ file: writeClientFile(a), dryRun: true });
    expect(r.clientEdit.url).toBe(`${new URL(a.url).origin}/mcp`);
  });
});

function writeClientFile(a: FileApp): string {
  const file = join(dirname(a.configPath), 'cursor-mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { one: { command: 'echo', args: ['1'] } } }));
  return file;
}
