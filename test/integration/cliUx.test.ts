// `mws` as a person meets it: help on every command, the version, one-sentence errors with a
// did-you-mean, tables by default, pause/resume, and `mws import` into a running instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';
import { connectClient, tempDir, textOf } from '../helpers/app.js';
import { main } from '../../src-main/cli/main.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
const COMMANDS = [
  'serve',
  'init',
  'import',
  'search',
  'eval',
  'learned',
  'promote',
  'demote',
  'cycle',
  'sweep',
  'report',
  'approve',
  'pause',
  'resume',
  'ui',
  'upstream',
  'secrets',
  'status',
  'doctor',
  'pin',
  'unpin',
  'auth',
  'client',
];
let serve: Running;
let dir: string;
let cfg: string;
let url: string;
let home: string;

/** In-process: commands load lazily, so help and mistakes never start the core. */
async function run(argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => void (out += `${s}\n`), err: (s) => void (err += `${s}\n`) });
  return { code, out, err };
}

function mws(args: string[], opts: { config?: boolean; cwd?: string } = {}): Promise<{ code: number | null; out: string; err: string }> {
  const r = spawnTs(MWS, opts.config === false ? args : [...args, '--config', cfg], { HOME: home });
  return new Promise((resolve) => r.proc.once('exit', (code) => resolve({ code, out: r.stdout(), err: r.stderr() })));
}

async function control<T>(method: string): Promise<T> {
  const token = readFileSync(join(dir, 'state', 'control-token'), 'utf8').trim();
  const res = await fetch(`${url.replace(/\/mcp$/, '')}/control/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await res.json()) as { result: T }).result;
}

beforeAll(async () => {
  dir = tempDir();
  home = join(dir, 'home');
  cpSync(join(ROOT, 'test', 'fixtures', 'import', 'home'), home, { recursive: true });
  cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify(
      {
        upstreams: { demo: { builtin: 'demo' } },
        stateDir: join(dir, 'state'),
        listen: { port: 0 },
      },
      null,
      2,
    ),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg], { HOME: home });
  url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
});
afterAll(async () => {
  await serve?.kill();
});

// Each `mws` run is a fresh Node process; on a busy 2-core machine a few take seconds each.
const SLOW = { timeout: 180_000 };

describe('help, version and mistakes', () => {
  it('answers --help on every command, and --version', SLOW, async () => {
    const results = await Promise.all(COMMANDS.map((c) => run([c, '--help'])));
    results.forEach((r, i) => {
      expect(r.code, COMMANDS[i]).toBe(0);
      expect(r.out, COMMANDS[i]).toMatch(new RegExp(`^mws ${COMMANDS[i]}: .+\\n\\nUsage:\\n  mws ${COMMANDS[i]}`));
      expect(r.out).toMatch(/--help\s+this help/);
    });
    const v = await run(['--version']);
    expect(v.out.trim()).toMatch(/^mws \d+\.\d+\.\d+$/);
    const all = await run(['--help']);
    for (const c of COMMANDS) expect(all.out).toMatch(new RegExp(`^  ${c}\\s+\\S`, 'm'));
  });

  it('says what was wrong in one sentence, with a did-you-mean', SLOW, async () => {
    const flag = await mws(['search', 'mail', '--jsno']);
    expect(flag.code).toBe(2);
    expect(flag.err.trim()).toBe('mws: mws search has no option --jsno; did you mean --json? (`mws search --help` lists its options.)');
    const cmd = await run(['reprot']);
    expect(cmd.err.trim()).toBe('mws: There is no command "reprot"; did you mean `mws report`? (`mws --help` lists them.)');
    const missing = await mws(['search', 'x', '--limit']);
    expect(missing.err.trim()).toMatch(/^mws: --limit needs a value\./);
    // A bare promote explains itself instead of promoting by usage and sweeping.
    const bare = await mws(['promote']);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/mws promote needs a tool name.*use `mws cycle`/);
  });
});

describe('tables and words', () => {
  it('search prints a table with kinds; --json the exact reply', SLOW, async () => {
    const r = await mws(['search', 'share a file']);
    expect(r.out.split('\n')[0]).toMatch(/^#\s+tool\s+kind\s+listed\s+description$/);
    expect(r.out).toMatch(/1\s+demo__drive_share_file\s+write\s+Share a file or folder/);
    const j = await mws(['search', 'share a file', '--json']);
    expect(JSON.parse(j.out).reply.results[0].name).toBe('demo__drive_share_file');
  });

  it('sweep says "nothing" plainly and report uses plurals and relative times', SLOW, async () => {
    const s = await mws(['sweep', '--dry-run']);
    expect(s.out.trim()).toBe('A sweep now would demote nothing.');
    await mws(['promote', 'demo__mail_search_messages']);
    const r = await mws(['report']);
    expect(r.out).toMatch(/1 of 20 tools listed, idle window 21 days\n {2}listing 1 tool \+ 4 meta-tools: /);
    expect(r.out).toMatch(/just now/);
    expect(r.out).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('pause and resume the running proxy', SLOW, async () => {
    const p = await mws(['pause']);
    expect(p.out).toMatch(/Working Set is paused/);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/mws resume/);
    expect((await mws(['resume'])).out).toMatch(/serving again/);
  });

  it('approve --list shows waiting calls and grants; --revoke withdraws one', SLOW, async () => {
    const c = await connectClient(url, 'auto', 'cli-ux');
    const call = c.client.callTool({ name: 'demo__mail_send_message', arguments: { to: ['a@example.com'], subject: 'hi', body: 'x' } });
    const end = Date.now() + 30_000;
    while (!(await control<unknown[]>('pendingApprovals')).length) {
      if (Date.now() > end) throw new Error('the call never waited for approval');
      await new Promise((r) => setTimeout(r, 50));
    }
    const list = (await mws(['approve'])).out;
    expect(list).toMatch(
      /1 call waiting for approval:\nagent\s+tool\s+kind\s+waited\s+left\s+arguments\ndefault\s+demo__mail_send_message\s+write\s+\d+ s\s+\d+ (s|min)\s+\{"to":\["a@example.com"\]/,
    );
    expect((await mws(['approve', 'demo__mail_send_message'])).out).toMatch(
      /Allowed demo__mail_send_message for default; 1 waiting call will run now/,
    );
    expect(textOf(await call)).toContain('"ok":true');
    const grants = await mws(['approve', '--list']);
    expect(grants.out).toMatch(
      /No calls are waiting for approval\.\n\nAllowed without asking .*\nagent\s+tool\s+kind\s+allowed\s+does\ndefault\s+demo__mail_send_message\s+write\s+just now/,
    );
    expect((await mws(['approve', 'demo__mail_send_message', '--revoke'])).out).toMatch(
      /Withdrawn: demo__mail_send_message asks default's user again/,
    );
    expect((await mws(['approve', '--list'])).out).toMatch(/No tool is allowed without asking yet\./);
    await c.close();
  });
});

describe('mws import', () => {
  it("adds Cursor's servers to the running instance and prints the client edit", SLOW, async () => {
    const r = await mws(['import', '--from', 'cursor', '--only', 'postgres']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/postgres\s+stdio\s+npx -y @modelcontextprotocol\/server-postgres postgresql:\/\/localhost\/shop\s+PGPASSWORD/);
    expect(r.out).not.toMatch(/hunter2/);
    expect(r.out).toMatch(
      /Added 1 upstream from ~\/\.cursor\/mcp\.json: postgres\.\nYour Working Set config was backed up to .*\.bak first\.\nThe running instance serves them now\./,
    );
    expect(r.out).toContain(`"url": "${url}"`);
    // The password went to the secret store: config.json names it by reference.
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.postgres.env).toEqual({
      PGPASSWORD: '${secret:upstreams.postgres.env.PGPASSWORD}',
    });
    expect(readFileSync(cfg, 'utf8')).not.toMatch(/hunter2/);
    expect(r.out).toContain('Their secret values went to the secret store, not config.json: postgres: env.PGPASSWORD.');
    expect(readFileSync(join(dir, 'state', 'secrets.json'), 'utf8')).toContain('hunter2_SECRETVALUE');
    // The running instance has it (its status lists the upstream, up or down).
    expect((await control<Array<{ vendor: string }>>('upstreams')).map((u) => u.vendor)).toContain('postgres');
  });
});
