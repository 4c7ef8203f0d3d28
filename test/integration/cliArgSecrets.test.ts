// `mws secrets migrate` as a user runs it, on a config whose stdio server carries a database password in
// its arguments (it once answered that there was nothing to move): the credential goes to the secret
// store, config.json keeps a reference in its place, and `mws upstream list` never prints it.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMws } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';

describe('mws secrets migrate moves credentials out of command arguments', () => {
  it('stores the URL password and the --token value, and leaves references in config.json', async () => {
    const dir = tempDir('mws-arg-secrets-');
    const cfg = join(dir, 'config.json');
    const stateDir = join(dir, 'state');
    writeFileSync(
      cfg,
      JSON.stringify({
        stateDir,
        upstreams: {
          pg: { command: 'npx', args: ['-y', '@mcp/postgres', 'postgresql://user:hunter2@db.example/app', '--token', 'tok-secret-2'] },
        },
      }),
    );
    const r = await runMws(['secrets', 'migrate', '--config', cfg]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('upstreams.pg.args.url-password');
    expect(r.out).toContain('upstreams.pg.args.token');
    const file = readFileSync(cfg, 'utf8');
    expect(file).not.toMatch(/hunter2|tok-secret-2/);
    expect(JSON.parse(file).upstreams.pg.args).toEqual([
      '-y',
      '@mcp/postgres',
      'postgresql://user:${secret:upstreams.pg.args.url-password}@db.example/app',
      '--token',
      '${secret:upstreams.pg.args.token}',
    ]);
    const store = readFileSync(join(stateDir, 'secrets.json'), 'utf8');
    expect(store).toContain('hunter2');
    expect(store).toContain('tok-secret-2');
    const list = await runMws(['secrets', 'list', '--config', cfg]);
    expect(list.out).toContain('upstreams.pg.args.url-password');
    // A second run finds nothing more to move.
    const again = await runMws(['secrets', 'migrate', '--config', cfg]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).not.toContain('upstreams.pg.args');
  });
});
