// A full disk against a real `mws serve`: writes under the state folder fail with
// ENOSPC (injected by a preload, test/fixtures/preload/diskFull.mjs) while a marker file exists.
// promote answers disk_full and the tool is not listed, now or after a restart; the CLI says so in one
// sentence; a call still runs, and its record that could not be written is counted in `mws report`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT, runMws, spawnMws, waitForOutput, type Running } from '../helpers/processes.js';
import { tempDir, textOf } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

const PRELOAD = join(ROOT, 'test', 'fixtures', 'preload', 'diskFull.mjs');
let dir: string;
let cfg: string;
let marker: string;
let env: NodeJS.ProcessEnv;
let serve: Running;
let url: string;
let client: Client;

const listed = async () => (await client.listTools()).tools.map((t) => t.name);

async function start(): Promise<void> {
  serve = spawnMws(['serve', '--config', cfg], env);
  url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  client = new Client({ name: 'disk-full', version: '1' }, { versionNegotiation: { mode: 'auto' } } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
}

beforeAll(async () => {
  dir = tempDir('mws-full-');
  cfg = join(dir, 'config.json');
  marker = join(dir, 'disk-is-full');
  const stateDir = join(dir, 'state');
  writeFileSync(cfg, JSON.stringify({ upstream: { builtin: 'demo' }, stateDir, listen: { port: 0 } }));
  env = { NODE_OPTIONS: `--import ${PRELOAD}`, MWS_TEST_DISK_FULL: marker, MWS_TEST_FULL_DIR: stateDir };
  await start();
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await serve?.kill();
});

describe('a full state folder', () => {
  it('promote (meta-tool) answers disk_full in one sentence and does not list the tool', async () => {
    writeFileSync(marker, '');
    const r = await client.callTool({ name: 'promote', arguments: { name: 'mail_send_message' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /^disk_full: The disk is full: the promotion of mail_send_message could not be saved in .+, so nothing changed\. Free some space there and try again\.$/,
    );
    expect(r.structuredContent).toMatchObject({ error: 'disk_full' });
    expect(await listed()).not.toContain('mail_send_message');
  });

  it('`mws promote` says the disk is full in one sentence, never "This is a bug in mws"', async () => {
    const r = await runMws(['promote', 'mail_create_draft', '--config', cfg]);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/The disk is full: .*nothing changed/);
    expect(r.err).not.toMatch(/bug in mws|\n\s+at /);
    expect(await listed()).not.toContain('mail_create_draft');
  }, 60_000);

  it('a call still runs; its record that could not be written is counted in `mws report` and the log', async () => {
    const r = await client.callTool({ name: 'call_tool', arguments: { name: 'mail_get_message', arguments: { messageId: 'm1' } } });
    expect(r.isError).toBeFalsy();
    await until(() => /call record could not be written .*the disk is full/.test(serve.stderr()), 'the log line of a dropped call record');
    const rep = await runMws(['report', '--json', '--config', cfg]);
    expect(rep.err).not.toMatch(/bug in mws/);
    expect(rep.code, rep.err).toBe(0);
    const reports = JSON.parse(rep.out.trim().split('\n').pop()!) as Array<{ agent: string; droppedCallRecords: number }>;
    expect(reports.find((x) => x.agent === 'default')?.droppedCallRecords).toBeGreaterThanOrEqual(1);
    const text = await runMws(['report', '--config', cfg]);
    expect(text.out).toMatch(/call records? could not be written since the instance started/);
  }, 60_000);

  it('after space comes back and a restart, what was refused is still not listed, and promote works', async () => {
    rmSync(marker);
    await client.close();
    await serve.kill();
    await start();
    expect(await listed()).not.toContain('mail_send_message');
    const r = await client.callTool({ name: 'promote', arguments: { name: 'mail_send_message' } });
    expect(r.isError).toBeFalsy();
    expect(await listed()).toContain('mail_send_message');
  }, 60_000);
});
