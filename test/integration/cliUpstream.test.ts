// `mws upstream enable|disable|restart|log` and `mws activity` as a user runs them, against a running
// instance and without one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadPort, runMws, spawnMws, stdioFixture, waitForOutput, type Running } from '../helpers/processes.js';
import { connectClient, tempDir } from '../helpers/app.js';
import { main } from '../../src-main/cli/main.js';

let serve: Running | undefined;
let dir: string;
let cfg: string;
let url: string;
let gone: string;
const SLOW = { timeout: 180_000 };
const mws = (...args: string[]) => runMws([...args, '--config', cfg]);
const failing = { command: process.execPath, args: ['-e', "console.error('GITHUB_TOKEN is not set'); process.exit(1)"] };

beforeAll(async () => {
  dir = tempDir();
  cfg = join(dir, 'config.json');
  gone = `http://127.0.0.1:${await deadPort()}/mcp`;
  writeFileSync(
    cfg,
    JSON.stringify(
      {
        upstreams: { s: stdioFixture(), bad: failing, gone: { url: gone } },
        stateDir: join(dir, 'state'),
        listen: { port: 0 },
        agents: [{ id: 'default', approvals: 'allow' }],
      },
      null,
      2,
    ),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
}, 120_000);
afterAll(async () => {
  await serve?.kill();
});

describe('mws upstream, with an instance running', () => {
  it("shows a failing server's stderr and why it is down", SLOW, async () => {
    await vi.waitFor(
      async () => {
        const r = await mws('upstream', 'log', 'bad');
        expect(r.code).toBe(0);
        expect(r.out).toContain('GITHUB_TOKEN is not set');
        expect(r.out).toMatch(/— down: /);
      },
      { timeout: 60_000, interval: 500 },
    );
  });

  it('says a dead server in words in its log view, the restart answer and the log, never the SDK\'s "fetch failed"', SLOW, async () => {
    const words = `Nothing answers at ${gone}. Check that the server is running and that the host and port are right`;
    await vi.waitFor(
      async () => {
        const r = await mws('upstream', 'log', 'gone');
        expect(r.out).toContain(`— down: ${words}.`);
      },
      { timeout: 60_000, interval: 500 },
    );
    const r = await mws('upstream', 'restart', 'gone');
    expect(r.out).toBe(`Restarted "gone": it is down: ${words}.\n`);
    expect((await mws('upstream', 'log', 'gone')).out).not.toMatch(/fetch failed|Version negotiation/);
    expect(serve!.stderr()).toContain(`upstream "gone" is down: ${words}.`);
    expect(
      serve!
        .stderr()
        .split('\n')
        .filter((l) => /"gone"/.test(l) && /fetch failed|Version negotiation/.test(l)),
    ).toEqual([]);
  });

  it('turns an upstream off and on, and restarts it', SLOW, async () => {
    const off = await mws('upstream', 'disable', 's');
    expect(off.out).toContain('Turned "s" off');
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.s.enabled).toBe(false);
    const refused = await mws('upstream', 'restart', 's');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/turned off; turn it on to start it \(mws upstream enable s\)/);
    expect((await mws('upstream', 'enable', 's')).out).toContain('Turned "s" on');
    const r = await mws('upstream', 'restart', 's', '--json');
    expect(JSON.parse(r.out)).toMatchObject({ vendor: 's', status: 'up' });
  });

  it('lists calls with mws activity', SLOW, async () => {
    const c = await connectClient(url, 'auto');
    try {
      await c.client.callTool({ name: 'call_tool', arguments: { name: 'no_such_tool' } });
      await c.client.callTool({ name: 's__echo', arguments: { text: 'hello' } });
    } finally {
      await c.close();
    }
    await vi.waitFor(
      async () => {
        const r = await mws('activity', '--json');
        expect(JSON.parse(r.out)[0]).toMatchObject({ tool: 's__echo', upstream: 's', ok: true, agent: 'default' });
      },
      { timeout: 30_000, interval: 500 },
    );
    const table = await mws('activity', '--agent', 'default');
    expect(table.out).toMatch(/^time\s+agent\s+tool\s+upstream\s+ms\s+result\s+reason/m);
    expect(table.out).toMatch(/s__echo\s+s\s+\d+\s+ok/);
    // A call refused before it ran is listed with why.
    expect(table.out).toMatch(/no_such_tool\s+—\s+0\s+refused\s+No tool named "no_such_tool"\./);
  });

  it('says what it needs in one sentence', SLOW, async () => {
    const bad = await mws('upstream', 'frob', 's');
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe(
      'mws: mws upstream has no "frob": one of list, add, edit, remove, enable, disable, restart, log, set, then the upstream\'s name (e.g. `mws upstream log github`).',
    );
    const none = await mws('upstream', 'log', 'nope');
    expect(none.err).toMatch(/No upstream "nope" in .*config\.json\. The upstreams are: s, bad, gone\./);
  });
});

describe('help', () => {
  it('lists both commands and answers --help on each, in-process (nothing starts)', async () => {
    let out = '';
    const io = { out: (t: string) => void (out += `${t}\n`), err: () => {} };
    expect(await main(['--help'], io)).toBe(0);
    expect(out).toMatch(
      /^ {2}upstream\s+list, add, edit or remove upstreams, turn one off or on, restart it, follow its log, or give it a value$/m,
    );
    expect(out).toMatch(/^ {2}activity\s+the latest calls/m);
    out = '';
    expect(await main(['upstream', '--help'], io)).toBe(0);
    expect(out).toMatch(
      /^mws upstream: .+\n\nUsage:\n {2}mws upstream list \[--json\][^\n]*\n(?: {2}mws upstream [^\n]*\n)* {2}mws upstream enable\|disable\|restart NAME/,
    );
    out = '';
    expect(await main(['activity', '--help'], io)).toBe(0);
    expect(out).toContain('--limit N');
  });
});

describe('mws upstream, with no instance', () => {
  it('turns an upstream off in the file, and says restart and log need an instance', SLOW, async () => {
    await serve?.kill();
    serve = undefined;
    const off = await mws('upstream', 'disable', 'bad');
    expect(off.code).toBe(0);
    expect(off.out).toMatch(/Turned off "bad" in .*config\.json; it takes effect when Working Set starts\./);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.bad.enabled).toBe(false);
    const log = await mws('upstream', 'log', 's');
    expect(log.err).toMatch(/No instance is running, so there is no log to show .*`mws serve`/);
    // The activity log is on disk: it is read without an instance.
    expect(JSON.parse((await mws('activity', '--json')).out)[0]).toMatchObject({ tool: 's__echo' });
    // A name the config's object has only by inheritance is no upstream (it polluted Object.prototype).
    const proto = await mws('upstream', 'disable', '__proto__');
    expect(proto.code).not.toBe(0);
    expect(proto.err).toMatch(/No upstream "__proto__"/);
  });
});
