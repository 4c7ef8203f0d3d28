// `mws serve` as a user runs it holds V8's young generation from its launch (src-main/cli/launch.ts,
// core/http/youngGeneration.ts): module loading and the demo's start alone grew it to 8 MB a semispace
// (16 MiB committed) before the first request; held, it is at V8's first size, 1 MB (2 committed).
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadPort, spawnMws, listeningBase, type Running } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

let serve: Running | undefined;
afterAll(() => serve?.kill());

describe("mws serve's young generation", () => {
  it('is held at its first size through module loading and the start', async () => {
    const dir = tempDir('mws-young-');
    const stateDir = join(dir, 'state');
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir, listen: { port: await deadPort() } }));
    serve = spawnMws(['serve', '--config', cfg], { MWS_CODE_CACHE: 'off', NODE_OPTIONS: '' });
    const base = await listeningBase(serve);
    // The start done: the demo's tools listed (what it does after the socket is open).
    await until(async () => (await fetch(`${base}/readyz`)).status === 200, 'mws serve to be ready');
    const token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    const young = Number(/^mws_process_nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)$/m.exec(metrics)?.[1]);
    expect(young).toBeGreaterThan(0);
    // Two 1 MB semispaces; the requests above may let it double once (to 2 MB) before this reading.
    expect(young).toBeLessThanOrEqual(4 * 1024 * 1024);
  }, 60_000);
});
