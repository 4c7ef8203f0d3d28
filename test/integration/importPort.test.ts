// Every URL Working Set prints is the running instance's: with `mws serve --port N` (here an
// OS-assigned port the config does not name), `mws import --dry-run` suggests a client entry on N.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/app.js';
import { runMws, spawnMws, type Running, listeningBase } from '../helpers/processes.js';

let serve: Running | undefined;
afterAll(async () => serve?.kill());

describe('mws import against an instance started with --port', () => {
  it("suggests the client entry on the port the instance listens on, not the config's", async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    // The config's port is one nothing listens on; the instance is told to take any free one.
    writeFileSync(cfg, JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir: join(dir, 'state'), listen: { port: 4491 } }));
    serve = spawnMws(['serve', '--config', cfg, '--port', '0']);
    const base = await listeningBase(serve);
    expect(base).not.toMatch(/:4491$/);
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { files: { command: 'echo', args: ['x'] } } }));
    const r = await runMws(['import', file, '--dry-run', '--config', cfg]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`${base}/mcp`);
    expect(r.out).not.toContain('4491');
  });
});
