// /control bodies against a real `mws serve`: a body of too many JSON values or nested too deep is
// refused unread with 413 and a sentence, under the same value bound the MCP paths apply, and the
// instance keeps answering while eight of them arrive at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadPort, spawnMws, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { MAX_JSON_VALUES } from '../../src-main/core/http/jsonBounds.js';
import { MAX_CONTROL_DEPTH } from '../../src-main/core/http/controlBody.js';

let serve: Running;
let base = '';
let token = '';

beforeAll(async () => {
  const dir = tempDir('mws-control-bodies-');
  const cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  writeFileSync(cfg, JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir, listen: { port: await deadPort() } }));
  serve = spawnMws(['serve', '--config', cfg]);
  base = await listeningBase(serve);
  token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
}, 60_000);
afterAll(() => serve?.kill());

const post = (method: string, body: string) =>
  fetch(`${base}/control/${method}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });

/** A 2.6 MB array of tiny values: 1.3 million of them. */
const manyValues = `{"agent":"default","tool":[${'1,'.repeat(1_300_000)}1]}`;

describe('/control body bounds against a real mws serve', () => {
  it('refuses a body of more values than the MCP paths allow, with 413 and a sentence', async () => {
    const res = await post('promote', manyValues);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.message).toContain(`more than ${MAX_JSON_VALUES.toLocaleString('en-US')} JSON values`);
  });

  it('refuses a deeply nested value (it once answered 500 "a bug in mws"), and takes one at the bound', async () => {
    const nest = (n: number) => `{"agent":"default","tool":${'['.repeat(n)}${']'.repeat(n)}}`;
    const deep = await post('promote', nest(40_000));
    expect(deep.status).toBe(413);
    expect(((await deep.json()) as { error: { message: string } }).error.message).toMatch(/more than 32 levels deep/);
    // At the bound the body is read and the method refuses the argument as any wrong type.
    const ok = await post('promote', nest(MAX_CONTROL_DEPTH - 1));
    expect(ok.status).toBe(400);
    expect(((await ok.json()) as { error: { message: string } }).error.message).toMatch(/"tool" must be text/);
  });

  it('keeps answering while eight such bodies arrive at once', async () => {
    const flood = Array.from({ length: 8 }, () => post('promote', manyValues).then((r) => r.status));
    const started = performance.now();
    const ping = await post('status', '{}');
    const pingMs = performance.now() - started;
    expect(ping.status).toBe(200);
    expect(await Promise.all(flood)).toEqual(Array(8).fill(413));
    // Loose on a shared 2-core machine; the unbounded parse took 623 ms and 679 MB.
    expect(pingMs).toBeLessThan(2_000);
    expect(serve.proc.exitCode).toBeNull();
  });

  it('refuses a config edit over the config bounds with the field named', async () => {
    const headers = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`h${i}`, 'v']));
    const res = await post('saveUpstream', JSON.stringify({ vendor: 'wide', upstream: { url: 'http://127.0.0.1:9/mcp', headers } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /"upstreams\.wide\.headers" must have at most 100 entries/,
    );
  });
});
