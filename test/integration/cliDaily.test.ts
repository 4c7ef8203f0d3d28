// The daily commands as a person runs them against a real `mws serve`: status, upstream
// list/add/edit/remove, log --follow, pin/unpin and auth status (an OAuth server on loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMws, spawnMws, stdioFixture, waitForOutput, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir, TEST_LIST_MS } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { signInAsBrowser } from '../helpers/oauth.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth/server.js';

let serve: Running | undefined;
let oauth: OAuthFixture;
let dir: string;
let cfg: string;
let base: string;
const SLOW = { timeout: 180_000 };
/** `--config` right after the command: what follows `--` is an upstream's own command line. */
const mws = (command: string, ...args: string[]) => runMws([command, '--config', cfg, ...args], { DISPLAY: '', WAYLAND_DISPLAY: '' });
const failing = { command: process.execPath, args: ['-e', "console.error('GITHUB_TOKEN is not set'); process.exit(1)"] };
const saved = () =>
  JSON.parse(readFileSync(cfg, 'utf8')) as {
    upstreams: Record<string, Record<string, unknown>>;
    agents: Array<{ id: string; pins?: string[] }>;
  };

beforeAll(async () => {
  oauth = await startOAuthFixture(() => Date.now());
  dir = tempDir();
  cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify(
      {
        upstreams: { s: stdioFixture(), bad: failing, secure: { url: oauth.url } },
        stateDir: join(dir, 'state'),
        listen: { port: 0 },
        agents: [{ id: 'default', approvals: 'allow' }, { id: 'codex' }],
        timeouts: { listMs: TEST_LIST_MS },
      },
      null,
      2,
    ),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  base = await listeningBase(serve);
}, 120_000);
afterAll(async () => {
  await serve?.kill();
  await oauth?.close();
});

describe('mws status and mws upstream list', () => {
  it('status: the URL, each agent with its list size, upstreams up and down', SLOW, async () => {
    const r = await until(async () => {
      const x = await mws('status');
      return /1 up, 1 down, 1 needs sign-in/.test(x.out) && x;
    }, 'status to count 1 up, 1 down, 1 needs sign-in');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Working Set is running at ${base}.`);
    expect(r.out).toMatch(/^agent\s+name\s+listed\s+cap\s+url$/m);
    expect(r.out).toMatch(new RegExp(`^codex\\s+\\S+\\s+0\\s+\\d+\\s+${base}/mcp/codex/mcp$`, 'm'));
    const j = JSON.parse((await mws('status', '--json')).out);
    expect(j.running).toBe(true);
    expect(j.agents.map((a: { id: string }) => a.id)).toEqual(['default', 'codex']);
  });

  it('upstream list: status and the next step of each', SLOW, async () => {
    const r = await mws('upstream', 'list');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^upstream\s+kind\s+status\s+tools\s+next step$/m);
    expect(r.out).toMatch(/^s\s+stdio\s+up\s+8\s+—$/m);
    expect(r.out).toMatch(/^bad\s+stdio\s+down\s+—\s+see why: mws upstream log bad$/m);
    expect(r.out).toMatch(/^secure\s+http\s+needs sign-in\s+—\s+sign in: mws login secure$/m);
    const j = JSON.parse((await mws('upstream', 'list', '--json')).out) as Array<{ vendor: string; action: string | null }>;
    expect(j.find((u) => u.vendor === 'secure')?.action).toBe('sign in: mws login secure');
    expect(j.find((u) => u.vendor === 's')?.action).toBeNull();
  });
});

describe('mws upstream add, edit, remove', () => {
  it('adds a command upstream after --, edits its env keeping its command, and removes it', SLOW, async () => {
    const fx = stdioFixture();
    const add = await mws('upstream', 'add', 'more', '--env', 'A=1', '--', fx.command, ...fx.args);
    expect(add.code, add.err).toBe(0);
    expect(add.out).toMatch(/^Added "more": it is (starting|up)/);
    expect(saved().upstreams.more).toEqual({ command: fx.command, args: fx.args, env: { A: '1' } });
    await until(async () => /^more\s+stdio\s+up\s+8/m.test((await mws('upstream', 'list')).out), 'the added upstream to be up');

    const taken = await mws('upstream', 'add', 'more', '--url', 'http://127.0.0.1:9/mcp');
    expect(taken.code).toBe(1);
    expect(taken.err).toMatch(/An upstream named "more" already exists/);

    const edit = await mws('upstream', 'edit', 'more', '--env', 'B=2', '--env', 'A=');
    expect(edit.code, edit.err).toBe(0);
    expect(saved().upstreams.more).toEqual({ command: fx.command, args: fx.args, env: { B: '2' } });

    const rm = await mws('upstream', 'remove', 'more');
    expect(rm.code).toBe(0);
    expect(rm.out).toMatch(/^Removed "more"/);
    expect(saved().upstreams.more).toBeUndefined();
    expect((await mws('upstream', 'list')).out).not.toMatch(/^more\s/m);
  });

  it(
    'adds an HTTP upstream with a header and edits its URL; the header stays on its server and is typed again for another',
    SLOW,
    async () => {
      const add = await mws('upstream', 'add', 'web', '--url', 'http://127.0.0.1:9/mcp', '--header', 'X-Team=blue');
      expect(add.code, add.err).toBe(0);
      expect(saved().upstreams.web).toEqual({ url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'blue' } });
      const edit = await mws('upstream', 'edit', 'web', '--url', 'http://127.0.0.1:9/v2/mcp');
      expect(edit.code, edit.err).toBe(0);
      expect(saved().upstreams.web).toEqual({ url: 'http://127.0.0.1:9/v2/mcp', headers: { 'X-Team': 'blue' } });
      // Another server: a saved header is not sent there unless it is given again.
      const moved = await mws('upstream', 'edit', 'web', '--url', 'http://127.0.0.1:10/mcp');
      expect(moved.code).toBe(2);
      expect(moved.err).toMatch(/a saved secret only ever goes to the server it was saved for, so header X-Team would not be sent/);
      const retyped = await mws('upstream', 'edit', 'web', '--url', 'http://127.0.0.1:10/mcp', '--header', 'X-Team=blue');
      expect(retyped.code, retyped.err).toBe(0);
      expect(saved().upstreams.web).toEqual({ url: 'http://127.0.0.1:10/mcp', headers: { 'X-Team': 'blue' } });
      expect((await mws('upstream', 'remove', 'web')).code).toBe(0);
    },
  );

  it('keeps a secret header given to add in the secret store, never in config.json', SLOW, async () => {
    const add = await mws(
      'upstream',
      'add',
      'sec',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization=Bearer sk-live-0123456789',
    );
    expect(add.code, add.err).toBe(0);
    expect(readFileSync(cfg, 'utf8')).not.toContain('sk-live-0123456789');
    expect(saved().upstreams.sec!.headers).toEqual({ Authorization: expect.stringMatching(/^\$\{secret:[^}]+\}$/) });
    expect((await mws('upstream', 'remove', 'sec')).code).toBe(0);
  });

  it('refuses half-said upstreams in one sentence', SLOW, async () => {
    const none = await mws('upstream', 'add', 'x');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/Say what the upstream is: `mws upstream add NAME --url/);
    const both = await mws('upstream', 'add', 'x', '--url', 'http://127.0.0.1:9/mcp', '--', 'node');
    expect(both.err).toMatch(/a URL \(--url\) or a command \(after --\), not both/);
    const noDash = await mws('upstream', 'add', 'x', 'node', 'server.js');
    expect(noDash.err).toMatch(/Put the command after `--`: `mws upstream add x -- node server.js`/);
  });
});

describe('mws upstream log --follow', () => {
  it('prints the log, then the lines a restart adds, until stopped', SLOW, async () => {
    const follow = spawnMws(['upstream', 'log', 's', '--follow', '--config', cfg]);
    try {
      // The log so far first (its connected line), so that the count below is of what the follow printed.
      await waitForOutput(follow, /Following its log[^]*— connected/, 'log --follow to print the log so far');
      const before = (follow.stdout().match(/— connected/g) ?? []).length;
      expect((await mws('upstream', 'restart', 's')).code).toBe(0);
      // A restart under load (both cores busy) may take longer than the usual wait.
      await until(
        () => (follow.stdout().match(/— connected/g) ?? []).length > before,
        'a new "connected" line after the restart',
        60_000,
      ).catch((err: Error) => {
        throw new Error(
          `${err.message}\nThe follow printed:\n${follow.stdout()}\n${follow.stderr()}\nThe instance printed:\n${serve!.stderr().slice(-3000)}`,
        );
      });
    } finally {
      await follow.kill();
    }
  });
});

describe('mws pin and unpin', () => {
  it("pins a tool in an agent's list (kept in the config), and unpins it", SLOW, async () => {
    const p = await mws('pin', 's__echo', '--agent', 'codex');
    expect(p.code, p.err).toBe(0);
    expect(p.out).toMatch(/^Pinned s__echo for codex: it stays in its list \(1 tool\)/);
    expect(saved().agents.find((a) => a.id === 'codex')?.pins).toEqual(['s__echo']);
    expect((await mws('status')).out).toMatch(/^codex\s+\S+\s+1\s/m);
    const u = await mws('unpin', 's__echo', '--agent', 'codex');
    expect(u.code).toBe(0);
    expect(u.out).toMatch(/^Unpinned s__echo for codex/);
    expect(saved().agents.find((a) => a.id === 'codex')?.pins).toEqual([]);
    // Unpinning what is not pinned says so instead of "Unpinned".
    const again = await mws('unpin', 's__echo', '--agent', 'codex');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^s__echo was not pinned for codex; nothing changed\./);
  });

  it('offers the tools a name that no upstream lists may have meant, and names the agents there are', SLOW, async () => {
    const p = await mws('pin', 's__echoo', '--agent', 'codex');
    expect(p.code, p.err).toBe(0);
    expect(p.out).toMatch(/No upstream lists it right now.*Did you mean s__echo/);
    expect((await mws('unpin', 's__echoo', '--agent', 'codex')).code).toBe(0);
    const noSuch = await mws('pin', 's__echo', '--agent', 'nosuch');
    expect(noSuch.code).not.toBe(0);
    expect(noSuch.err).toMatch(/No agent "nosuch"\. The agents are: .*codex/);
  });
});

describe('mws auth status', () => {
  it('says sign in, then signed in with the expiry, then sign in again when the server revokes it', SLOW, async () => {
    const before = await mws('auth', 'status');
    expect(before.out).toMatch(/^secure\s+sign in\s+—\s+—\s+mws login secure$/m);

    const login = spawnMws(['login', 'secure', '--no-browser', '--config', cfg]);
    try {
      const link = (await waitForOutput(login, /^\s+(http:\/\/\S+)$/m, 'mws login to print the sign-in link'))[1]!;
      expect((await signInAsBrowser(link)).status).toBe(200);
      await waitForOutput(login, /Signed in to "secure"/, 'mws login to finish');
    } finally {
      await login.kill();
    }
    const after = await mws('auth', 'status');
    expect(after.out).toMatch(/^secure\s+signed in\s+\S+\s+in (59|60) min \(renews itself\)\s+—$/m);
    const j = JSON.parse((await mws('auth', 'status', '--json')).out) as Array<{ state: string; expiresAt: string }>;
    expect(j[0]!.state).toBe('signed in');
    expect(Date.parse(j[0]!.expiresAt)).toBeGreaterThan(Date.now());

    oauth.revokeEverything();
    // A call makes the instance ask the server, which now refuses the sign-in.
    await mws('upstream', 'restart', 'secure');
    await until(async () => /^secure\s+sign in again\s/m.test((await mws('auth', 'status')).out), '"sign in again" after the revocation');
    expect((await mws('upstream', 'list')).out).toMatch(/^secure\s+http\s+needs sign-in again\s+\S+\s+sign in again: mws login secure$/m);
  });
});
