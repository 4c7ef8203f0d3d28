// Three `mws serve` replicas on one PostgreSQL behind a real nginx balancing round-robin: an MCP client
// going through nginx lists and calls tools; one replica is killed (-9) while calls are under way and
// the client carries on through the other two; every call the client was answered for is in the
// shared call log, once.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { tempDir, textOf } from '../helpers/app.js';
import { exited, spawnMws, stdioFixture, waitForOutput, type Running } from '../helpers/processes.js';
import { freePort, startNginx, type TestNginx } from '../helpers/nginx.js';
import { makeCert, tlsFetch, type TestCert } from '../helpers/tls.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { until, withDeadline } from '../helpers/wait.js';

type Replica = { proc: Running; base: string };

let db: TestPostgres;
let url: string;
let nginx: TestNginx;
const env = { MWS_STATE_KEY: randomBytes(32).toString('base64') };
const replicas: Replica[] = [];
const clients: Client[] = [];
const TOKEN = randomBytes(24).toString('base64url');
let cert: TestCert;
let port: number;

async function startReplica(name: string, shared: Record<string, unknown> = {}): Promise<Replica> {
  const dir = tempDir(`mws-lb-${name}-`);
  const stateDir = join(dir, 'state');
  const cfg = join(dir, 'config.json');
  // Each replica as the docs' set-up has it: on loopback behind the TLS proxy, which it trusts.
  // Its banner names the public URL, so its own port is one the test asked the OS for.
  const own = await freePort();
  const listen = { host: '127.0.0.1', port: own, publicUrl: `https://127.0.0.1:${port}`, trustedProxies: ['127.0.0.1'] };
  writeFileSync(cfg, JSON.stringify({ listen, stateDir, store: { postgres: { url } }, ...shared }));
  const proc = spawnMws(['serve', '--config', cfg], env);
  await waitForOutput(proc, /listening on https:\/\/\S+\/mcp/, `replica ${name}`);
  const r = { proc, base: `http://127.0.0.1:${own}` };
  replicas.push(r);
  return r;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  db = await startPostgres();
  url = await db.freshDatabase('balanced');
  port = await freePort();
  cert = makeCert(tempDir('mws-lb-tls-'), '127.0.0.1');
  await startReplica('1', { upstreams: { fx: stdioFixture() }, defaultAgent: false, agents: [{ id: 'team', token: TOKEN }] });
  await Promise.all([startReplica('2'), startReplica('3')]);
  for (const r of replicas)
    await until(async () => {
      const res = await fetch(`${r.base}/readyz`);
      return ((await res.json()) as { upstreams?: { up?: number } }).upstreams?.up === 1;
    }, `replica ${r.base} to be ready with the upstream the first one brought into the database`);
  nginx = await startNginx({ port, backends: replicas.map((r) => new URL(r.base).host), tls: cert });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await nginx?.stop();
  await Promise.allSettled(replicas.map((r) => r.proc.kill()));
  await db?.stop();
});

describe('three replicas behind nginx', () => {
  it('a client through nginx lists and calls tools; a replica killed -9 mid-run, it carries on and no answered call goes unrecorded', async () => {
    // A 2026-07-28 client: no session, so any replica may answer any request.
    const client = new Client({ name: 'through-nginx', version: '1' }, { versionNegotiation: { mode: 'auto' } } as never);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${nginx.base}/mcp/team`), {
        fetch: tlsFetch(cert.pem, '127.0.0.1'),
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    clients.push(client);
    const c = { client };
    expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('search_tools');

    // Three agents' worth of calls at once, each in turn; the second replica is killed once some are answered.
    const answered: string[] = [];
    const failed: string[] = [];
    const TOTAL = 90;
    let sent = 0;
    let killedAt = -1;
    const victim = replicas[1]!;
    const worker = async () => {
      while (sent < TOTAL) {
        const text = `n${sent++}`;
        try {
          const res = await c.client.callTool({ name: 'call_tool', arguments: { name: 'fx__echo', arguments: { text } } });
          if (res.isError) failed.push(`${text}: ${textOf(res)}`);
          else {
            expect(textOf(res)).toContain(text);
            answered.push(text);
          }
        } catch (err) {
          failed.push(`${text}: ${(err as Error).message}`);
        }
        if (answered.length >= 30 && killedAt < 0) {
          killedAt = answered.length;
          victim.proc.proc.kill('SIGKILL');
        }
      }
    };
    await withDeadline(Promise.all([worker(), worker(), worker()]), 'the calls through nginx', 60_000);
    await exited(victim.proc, 'the killed replica');
    expect(killedAt).toBeGreaterThan(0);
    // At most the calls in flight on the killed replica fail; the rest go to the others.
    expect(failed.length, failed.join('\n')).toBeLessThanOrEqual(3);
    expect(answered.length).toBeGreaterThanOrEqual(TOTAL - 3);
    expect(answered.length - killedAt).toBeGreaterThan(40);
    // Still listing after the kill.
    expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('search_tools');

    // Every answered call is in the shared log, once; none beyond those sent.
    const rows = () =>
      count(
        `SELECT count(*) AS n FROM mws_calls WHERE kind = 'call' AND record->>'client' LIKE 'through-nginx%' AND record->>'tool' = 'fx__echo'`,
      );
    await until(async () => (await rows()) >= answered.length, 'every answered call to be in mws_calls');
    expect(await rows()).toBeLessThanOrEqual(TOTAL);
    // nginx saw the killed replica fail and passed it over.
    expect(nginx.errors()).toContain(new URL(victim.base).host);
  });
});
