// restarts, reconnects and turns on and off of one upstream are one at a time. Against a
// real `mws serve` with a real stdio fixture: 8 restarts asked at once leave one copy of the server
// running (each used to start its own, 8 left running), and a flood of 200 restarts, ons and offs is
// answered in full (done, 409 busy, or a sentence), none left hanging. So is a flood that mixes
// settings edits (saves and removals of an upstream) with those changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { built } from '../helpers/build.js';
import { deadPort, spawnMws, type Running, listeningBase } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { until, WAIT_MS, withDeadline } from '../helpers/wait.js';

/** Marks this file's fixture processes on their command line, so `ps` counts only them. */
const MARKER = `--mws-race-${randomUUID()}`;

let serve: Running;
let base: string;
let token: string;
let cfgPath: string;
/** A stdio server that keeps running when its stdin closes, so each stop waits for the signal that ends it. */
let stubborn: string;

beforeAll(async () => {
  const dir = tempDir('mws-race-');
  const cfg = join(dir, 'config.json');
  cfgPath = cfg;
  stubborn = join(dir, 'stubborn.cjs');
  writeFileSync(
    stubborn,
    `const send = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
  let m; try { m = JSON.parse(l); } catch { return; }
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stubborn', version: '1' } } });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'echo', description: 'echo', inputSchema: { type: 'object' } }] } });
  send({ jsonrpc: '2.0', id: m.id, result: {} });
});
setInterval(() => {}, 1e9);
`,
  );
  const stateDir = join(dir, 'state');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstreams: { s: { command: process.execPath, args: [built('stdio'), MARKER] } },
      stateDir,
      listen: { port: await deadPort() },
      agents: [{ id: 'default', approvals: 'allow' }],
    }),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  base = await listeningBase(serve);
  token = readFileSync(join(stateDir, 'control-token'), 'utf8').trim();
  await until(async () => (await control('status', {})).body.result?.upstreams?.[0]?.status === 'up', 'upstream s to be up');
}, 60_000);

afterAll(async () => {
  await serve?.kill();
});

type Answer = { status: number; body: { ok?: boolean; result?: { upstreams?: Array<{ status: string }> }; error?: { message: string } } };

async function control(method: string, args: unknown): Promise<Answer> {
  const res = await fetch(`${base}/control/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** The fixture's processes still running (zombies left out). */
function fixtures(marker = MARKER): number {
  const ps = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(marker) && !l.trim().startsWith('Z')).length;
}

describe('one upstream changed from many places at once', () => {
  it('8 restarts asked at once leave one copy of the server running', async () => {
    expect(fixtures()).toBe(1);
    const answers = await withDeadline(
      Promise.all(Array.from({ length: 8 }, () => control('restartUpstream', { vendor: 's' }))),
      '8 parallel restarts to be answered',
      60_000,
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    await until(() => fixtures() === 1, 'one fixture process left running', WAIT_MS);
    await until(async () => (await control('status', {})).body.result?.upstreams?.[0]?.status === 'up', 'upstream s to be up again');
    expect(fixtures()).toBe(1);
  }, 120_000);

  it('answers every one of 200 parallel restarts, ons and offs, and leaves at most one server', async () => {
    const started = Date.now();
    const calls = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0 ? control('restartUpstream', { vendor: 's' }) : control('setUpstreamEnabled', { vendor: 's', enabled: i % 3 === 1 }),
    );
    const answers = await withDeadline(Promise.all(calls), '200 parallel upstream changes to be answered', 90_000);
    const seconds = (Date.now() - started) / 1000;
    const by = new Map<number, number>();
    for (const a of answers) by.set(a.status, (by.get(a.status) ?? 0) + 1);
    console.log(`200 changes answered in ${seconds.toFixed(1)} s:`, Object.fromEntries(by));
    for (const a of answers) {
      // Done, busy, or a sentence (a restart of an upstream turned off meanwhile): never a bug.
      expect([200, 409], JSON.stringify(a.body)).toContain(a.status);
      if (a.status !== 200) expect(a.body.error?.message).toMatch(/busy|turned off/);
    }
    // Whatever the last word was, it holds: turned on, one server; turned off, none.
    expect((await control('setUpstreamEnabled', { vendor: 's', enabled: true })).status).toBe(200);
    await until(async () => (await control('status', {})).body.result?.upstreams?.[0]?.status === 'up', 'upstream s to be up');
    await until(() => fixtures() === 1, 'one fixture process left running after the flood', WAIT_MS);
    expect((await control('setUpstreamEnabled', { vendor: 's', enabled: false })).status).toBe(200);
    await until(() => fixtures() === 0, 'no fixture process once it is off', WAIT_MS);
  }, 180_000);

  it('answers every one of 200 parallel saves, removals, restarts and turns on and off of a new upstream', async () => {
    const started = Date.now();
    const calls = Array.from({ length: 200 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return control('saveUpstream', {
            vendor: 's2',
            upstream: { command: process.execPath, args: [stubborn, `${MARKER}-s2`, `v${i}`] },
          });
        case 1:
          return control('restartUpstream', { vendor: 's2' });
        case 2:
          return control('removeUpstream', { vendor: 's2' });
        default:
          return control('setUpstreamEnabled', { vendor: 's2', enabled: i % 8 === 3 });
      }
    });
    const answers = await withDeadline(Promise.all(calls), '200 parallel settings edits and changes to be answered', 60_000);
    const by = new Map<number, number>();
    for (const a of answers) by.set(a.status, (by.get(a.status) ?? 0) + 1);
    console.log(`200 edits and changes answered in ${((Date.now() - started) / 1000).toFixed(1)} s:`, Object.fromEntries(by));
    for (const a of answers) {
      // Done, busy, or a sentence (no such upstream after a removal): never a bug, never a wait past the deadline.
      expect([200, 404, 409], JSON.stringify(a.body)).toContain(a.status);
      if (a.status !== 200) expect(a.body.error?.message).toMatch(/busy|No upstream|already exists|turned off/);
    }
    // Nothing asked before the answers is applied after them: the file and the running instance agree.
    const inFile = Object.hasOwn((JSON.parse(readFileSync(cfgPath, 'utf8')) as { upstreams: object }).upstreams, 's2');
    const rows = (await control('upstreams', {})).body.result as unknown as Array<{ vendor: string }>;
    expect(rows.some((r) => r.vendor === 's2')).toBe(inFile);
    if (inFile) expect((await control('removeUpstream', { vendor: 's2' })).status).toBe(200);
    await until(() => fixtures(`${MARKER}-s2`) === 0, 'no copy of s2 left running once it is removed', WAIT_MS);
  }, 180_000);
});
