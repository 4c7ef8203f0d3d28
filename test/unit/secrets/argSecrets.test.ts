// Credentials inside a stdio server's arguments: recognised as env and header values are, shown masked,
// moved to the secret store with a reference left in their place, and masked in errors.
import { describe, expect, it } from 'vitest';
import { argSecrets, maskArgs } from '../../../src-main/core/secrets/args.js';
import { applyMoves, planConfigMoves, planMoves } from '../../../src-main/core/secrets/move.js';
import { resolveUpstream } from '../../../src-main/core/secrets/refs.js';
import { MemorySecretStore } from '../../../src-main/core/secrets/store.js';
import { MASK, maskedArgs, upstreamJson } from '../../../src-main/core/control/upstreamConfig.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { scanImports } from '../../../src-main/core/import/service.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/app.js';

const PG = 'postgresql://user:hunter2@db.example:5432/app';

describe('credentials in arguments', () => {
  it('finds a URL password, --flag=value, --flag value and NAME=value; leaves the rest and references alone', () => {
    const args = ['-y', '@mcp/postgres', PG, '--api-key=sk-1', '--token', 'tok-2', '-e', 'GITHUB_TOKEN=ghp_3', '--verbose', 'x'];
    expect(maskArgs(args, MASK)).toEqual([
      '-y',
      '@mcp/postgres',
      `postgresql://user:${MASK}@db.example:5432/app`,
      `--api-key=${MASK}`,
      '--token',
      MASK,
      '-e',
      `GITHUB_TOKEN=${MASK}`,
      '--verbose',
      'x',
    ]);
    expect(argSecrets(['--no-auth', '/srv/data', '--token', '--other', 'https://u@h/x', 'https://h/x?a=b'])).toEqual([]);
    expect(argSecrets(['--password=${secret:upstreams.pg.args.password}', 'postgresql://u:${input:pw}@h/db'])).toEqual([]);
  });

  it('moves each credential to the store and leaves a reference inside the argument, which resolves back', async () => {
    const u = { command: 'npx', args: ['@mcp/postgres', PG, '--token', 'tok-2', '--api-key=sk-1'] };
    const moves = planMoves('pg', u);
    expect(moves.map((m) => [m.name, m.value])).toEqual([
      ['upstreams.pg.args.url-password', 'hunter2'],
      ['upstreams.pg.args.token', 'tok-2'],
      ['upstreams.pg.args.api-key', 'sk-1'],
    ]);
    const store = new MemorySecretStore();
    for (const m of moves) await store.set(m.name, m.value);
    applyMoves(u, moves);
    expect(u.args).toEqual([
      '@mcp/postgres',
      'postgresql://user:${secret:upstreams.pg.args.url-password}@db.example:5432/app',
      '--token',
      '${secret:upstreams.pg.args.token}',
      '--api-key=${secret:upstreams.pg.args.api-key}',
    ]);
    expect(JSON.stringify(u)).not.toMatch(/hunter2|tok-2|sk-1/);
    // Nothing left to move; the config validates; connecting puts the values back.
    expect(planMoves('pg', u)).toEqual([]);
    const cfg = validateConfig({ upstreams: { pg: u } }, '/s').upstreams.pg!;
    const r = await resolveUpstream('pg', cfg, { secrets: store, env: {} });
    expect(r.ok && r.config.kind === 'stdio' && r.config.args).toEqual(['@mcp/postgres', PG, '--token', 'tok-2', '--api-key=sk-1']);
  });

  it('names a second credential of the same kind apart from the one an earlier migration gave out', () => {
    const u = { command: 'x', args: ['--token', '${secret:upstreams.a.args.token}', '--token', 'new'] };
    expect(planMoves('a', u).map((m) => m.name)).toEqual(['upstreams.a.args.token-2']);
    expect(planConfigMoves({ upstreams: { a: u } })[0]!.moves).toHaveLength(1);
  });

  it('masks plain-text argument credentials in errors, and the window sends masked ones back as the saved ones', async () => {
    const cfg = validateConfig({ upstreams: { pg: { command: 'x', args: [PG] } } }, '/s').upstreams.pg!;
    const r = await resolveUpstream('pg', cfg, { secrets: new MemorySecretStore(), env: {} });
    expect(r.ok && r.secrets).toContain('hunter2');
    const saved = { command: 'x', args: ['--token', 'tok-2', PG] };
    const shown = maskedArgs(saved.args);
    expect(upstreamJson({ command: 'x', args: shown }, saved).args).toEqual(saved.args);
    // An argument added in front: each masked one still finds its own saved value.
    expect(upstreamJson({ command: 'x', args: ['--new', ...shown] }, saved).args).toEqual(['--new', ...saved.args]);
  });

  it('import shows a server found in a client file with its argument credentials masked', async () => {
    const file = join(tempDir('mws-import-args-'), 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { pg: { command: 'npx', args: ['@mcp/postgres', PG, '--api-key=sk-1'] } } }));
    const [source] = await scanImports({ file });
    const found = source!.servers[0]!;
    expect(found.args).toEqual(['@mcp/postgres', `postgresql://user:${MASK}@db.example:5432/app`, `--api-key=${MASK}`]);
    expect(JSON.stringify(source)).not.toMatch(/hunter2|sk-1/);
  });
});

describe('credentials inside longer arguments', () => {
  it('finds a credential pair in a connection string or a URL query, and a credential member in a JSON argument', () => {
    const args = [
      'host=db user=u password=hunterB dbname=x',
      'Server=db;User Id=u;Password=hunterC;',
      'https://api.example/v1?api_key=hunterD&page=2',
      '{"user":"u","password":"hunterE","port":5432}',
      'postgresql://u:hunterF@h/db?sslmode=require&password=hunterG',
    ];
    expect(maskArgs(args, MASK)).toEqual([
      `host=db user=u password=${MASK} dbname=x`,
      `Server=db;User Id=u;Password=${MASK};`,
      `https://api.example/v1?api_key=${MASK}&page=2`,
      `{"user":"u","password":"${MASK}","port":5432}`,
      `postgresql://u:${MASK}@h/db?sslmode=require&password=${MASK}`,
    ]);
    // Names that are no credential, references and negations stay as they are.
    expect(argSecrets(['host=db user=u dbname=x', '{"user":"u","port":"5432"}', 'a=1;b=2', 'x password=${secret:pg} y'])).toEqual([]);
  });

  it('moves two credentials of one argument to the store and resolves the argument back', async () => {
    const u = { command: 'pg-mcp', args: ['host=db password=hunterB sslpassword=hunterH'] };
    const moves = planMoves('pg', u);
    expect(moves.map((m) => m.value)).toEqual(['hunterB', 'hunterH']);
    const store = new MemorySecretStore();
    for (const m of moves) await store.set(m.name, m.value);
    const moved = structuredClone(u);
    applyMoves(moved, moves);
    expect(JSON.stringify(moved)).not.toMatch(/hunter/);
    const cfg = validateConfig({ upstreams: { pg: moved } }, '/s').upstreams.pg!;
    const r = await resolveUpstream('pg', cfg, { secrets: store, env: {} });
    expect(r.ok && r.config.kind === 'stdio' && r.config.args).toEqual(u.args);
    // And errors quoting the argument mask both values.
    expect(r.ok && r.secrets).toEqual(expect.arrayContaining(['hunterB', 'hunterH']));
  });
});
