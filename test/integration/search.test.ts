// search_tools through the proxy, and `mws search` / `mws eval` as a user runs them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';
import { modelSettled } from '../helpers/model.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const r = spawnTs(MWS, args);
  return new Promise((resolve) => r.proc.once('exit', (code) => resolve({ code, out: r.stdout(), err: r.stderr() })));
}

let serve: Running;
let client: TestClient;
let cfg: string;
let stateDir: string;
let liveBase: string;

beforeAll(async () => {
  const dir = tempDir();
  stateDir = join(dir, 'state');
  cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstream: { builtin: 'demo' },
      stateDir,
      listen: { port: 0 },
      pins: ['drive_share_file'],
      agents: [{ id: 'bot', pins: ['mail_send_message'] }],
    }),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg]);
  const m = await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve');
  liveBase = m[1]!.replace(/\/mcp$/, '');
  client = await connectClient(`${m[1]}/bot`, 'auto', 'search-test-client');
});
afterAll(async () => {
  await client?.close();
  await serve?.kill();
});

describe('search_tools through the proxy', () => {
  it('ranks, marks what the agent lists, and logs the search without its query text', async () => {
    const r = await client.client.callTool({ name: 'search_tools', arguments: { query: 'email someone', limit: 3 } });
    const reply = JSON.parse(textOf(r)) as { results: Array<{ name: string; promoted: boolean }> };
    expect(reply.results[0]).toMatchObject({ name: 'mail_send_message', promoted: true });
    expect(reply.results).toHaveLength(3);
    const bad = await client.client.callTool({ name: 'search_tools', arguments: { limit: 0 } });
    expect(bad.isError).toBe(true);
    await new Promise((r) => setImmediate(r));
  });

  it('gives `mws search` the very reply a model gets, from the running instance', async () => {
    // The first search started the model; once it has read every tool, both answers rank by meaning alike.
    const api = httpControlClient(liveBase, readFileSync(join(stateDir, 'control-token'), 'utf8').trim());
    await modelSettled(api);
    const viaMcp = textOf(await client.client.callTool({ name: 'search_tools', arguments: { query: 'share a file' } }));
    // For people, a table of the same hits; --json carries the reply itself.
    const cli = await run(['search', 'share a file', '--agent', 'bot', '--config', cfg]);
    expect(cli.code).toBe(0);
    expect(cli.out.split('\n')[1]).toMatch(
      new RegExp(`^1\\s+${(JSON.parse(viaMcp) as { results: Array<{ name: string }> }).results[0]!.name}\\s`),
    );
    expect(cli.err).toMatch(/from the running instance/);
    const json = await run(['search', 'share a file', '--agent', 'bot', '--json', '--config', cfg]);
    expect(JSON.parse(json.out.trim().split('\n').pop()!)).toMatchObject({
      agent: 'bot',
      source: 'running instance',
      reply: JSON.parse(viaMcp),
    });
  });

  it('records search events in calls.jsonl', async () => {
    const lines = readFileSync(join(stateDir, 'calls.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const searches = lines.filter((l) => l.event === 'search');
    expect(searches.length).toBeGreaterThanOrEqual(2);
    expect(searches[0]).toMatchObject({ agent: 'bot', client: 'search-test-client' });
    expect(readFileSync(join(stateDir, 'calls.jsonl'), 'utf8')).not.toContain('email someone');
  });
});

describe('mws search without a running instance', () => {
  it('answers from the configured upstreams, the same reply', async () => {
    const dir = tempDir();
    const offline = join(dir, 'c.json');
    writeFileSync(
      offline,
      JSON.stringify({ upstream: { builtin: 'demo' }, stateDir: join(dir, 's'), listen: { port: 1 }, pins: ['drive_share_file'] }),
    );
    const local = await run(['search', 'share a file', '--json', '--config', offline]);
    expect(local.code).toBe(0);
    expect((JSON.parse(local.out.trim().split('\n').pop()!) as { source: string }).source).toBe('config');
    const dflt = await connectClient(serveUrl(), 'auto');
    const live = textOf(await dflt.client.callTool({ name: 'search_tools', arguments: { query: 'share a file' } }));
    await dflt.close();
    expect(JSON.stringify((JSON.parse(local.out.trim().split('\n').pop()!) as { reply: unknown }).reply)).toBe(live);
  });
});

function serveUrl(): string {
  return serve.stdout().match(/listening on (http:\/\/\S+\/mcp)/)![1]!;
}

describe('mws eval', () => {
  it('reports the gold set and ends --json output with one JSON object', async () => {
    // The output's shape; the shipped hybrid engine's figures are held by searchEvalHybrid.test.ts.
    const r = await run([
      'eval',
      '--catalog',
      'test/fixtures/catalog.json',
      '--gold',
      'test/fixtures/search-gold.json',
      '--json',
      '--engine',
      'bm25f',
    ]);
    expect(r.code).toBe(0);
    const last = JSON.parse(r.out.trim().split('\n').pop()!) as Record<string, number>;
    expect(Object.keys(last).sort()).toEqual(['indexMs', 'mrr', 'n', 'p50Ms', 'p99Ms', 'recall5', 'top1', 'top3', 'top5']);
    expect(last.top1).toBeGreaterThanOrEqual(0.85);
    const human = await run([
      'eval',
      '--catalog',
      'test/fixtures/catalog.json',
      '--gold',
      'test/fixtures/search-gold.json',
      '--engine',
      'minisearch',
    ]);
    expect(human.out).toMatch(/engine minisearch/);
    expect(human.out).toMatch(/top-1 \d+\.\d%/);
  });

  it.each([
    [['--catalog', 'nope.json', '--gold', 'test/fixtures/search-gold.json'], /catalog file nope\.json: it does not exist/],
    [['--catalog', 'package.json', '--gold', 'test/fixtures/search-gold.json'], /catalog file package\.json must be an object \{"tools"/],
    [['--catalog', 'test/fixtures/catalog.json', '--gold', 'test/fixtures/catalog.json'], /gold file .* must be an array/],
    [['--catalog', 'test/fixtures/catalog.json'], /needs --catalog FILE and --gold FILE/],
  ])('refuses bad input with a sentence naming the file (%j)', async (args, msg) => {
    const r = await run(['eval', ...args]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(msg);
  });

  it('runs on a 5,000-tool catalog with empty descriptions and tools without parameters', async () => {
    const { generateCatalog } = await import('../../bench/genCatalog.js');
    const { tools, gold } = generateCatalog(5000);
    tools[0] = { name: tools[0]!.name, inputSchema: { type: 'object' } }; // no description, no parameters
    const dir = tempDir();
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify({ tools }));
    writeFileSync(join(dir, 'gold.json'), JSON.stringify(gold));
    const r = await run(['eval', '--catalog', join(dir, 'catalog.json'), '--gold', join(dir, 'gold.json'), '--json', '--engine', 'bm25f']);
    expect(r.code).toBe(0);
    const m = JSON.parse(r.out.trim().split('\n').pop()!) as Record<string, number>;
    expect(m.n).toBe(gold.length);
    expect(m.top3).toBeGreaterThan(0.5);
    console.log(`mws eval on 5,000 tools: ${JSON.stringify(m)}`);
  });

  it('names a gold entry that expects a tool the catalog lacks', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'g.json'), JSON.stringify([{ query: 'x', expected: ['no_such_tool'] }]));
    const r = await run(['eval', '--catalog', 'test/fixtures/catalog.json', '--gold', join(dir, 'g.json')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[0\] expects "no_such_tool", not in the catalog/);
  });
});
