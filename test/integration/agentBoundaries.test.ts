// Agents are a boundary where the user made them one, against a real
// `mws serve`: 40 searches on the open /mcp no longer move a tool in a token-protected agent's search,
// and three big waiting calls on /mcp no longer make another agent's approvals fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawnMws, waitForOutput, type Running } from '../helpers/processes.js';
import { modelSettled } from '../helpers/model.js';
import { tempDir, textOf } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import type { ControlApi } from '../../src-main/core/control/api.js';

const TOKEN = 'sec-token-0123456789abcdef';
const TOKEN2 = 'sec2-token-0123456789abcdef';
const QUERY = 'send an email to my boss';

let serve: Running;
let url: string;
let api: ControlApi;
const clients: Client[] = [];

async function connect(path: string, token?: string): Promise<Client> {
  const client = new Client({ name: `boundary-${path}`, version: '1' }, { versionNegotiation: { mode: 'auto' } } as never);
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(`${url}${path}`),
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
    ),
  );
  clients.push(client);
  return client;
}

/** Where `tool` ranks in the agent's search_tools answer for QUERY (1 = first; 0 = not among 50). */
async function rankOf(client: Client, tool: string): Promise<number> {
  const r = await client.callTool({ name: 'search_tools', arguments: { query: QUERY, limit: 50 } });
  const reply = JSON.parse(textOf(r)) as { results: Array<{ name: string }> };
  return reply.results.findIndex((h) => h.name === tool) + 1;
}

beforeAll(async () => {
  const dir = tempDir('mws-bound-');
  const cfg = join(dir, 'config.json');
  const stateDir = join(dir, 'state');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstream: { builtin: 'demo' },
      stateDir,
      listen: { port: 0 },
      timeouts: { approvalMs: 600_000 },
      agents: [{ id: 'default' }, { id: 'sec', token: TOKEN }, { id: 'sec2', token: TOKEN2 }],
    }),
  );
  serve = spawnMws(['serve', '--config', cfg]);
  url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  api = httpControlClient(url.replace(/\/mcp$/, ''), readFileSync(join(stateDir, 'control-token'), 'utf8').trim());
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await serve?.kill();
});

describe('learning across agents, with tokens in use', () => {
  it("40 searches → mail_get_message on the open /mcp leave a token-protected agent's ranking as it was", async () => {
    const open = await connect('');
    const sec = await connect('/sec', TOKEN);
    // Ranks are compared once the sentence model has read every tool (the first search starts it).
    await rankOf(sec, 'mail_get_message');
    await modelSettled(api);
    const before = await rankOf(sec, 'mail_get_message');
    const beforeDestructive = await rankOf(sec, 'mail_delete_message');
    expect(before).toBeGreaterThan(1);
    for (let i = 0; i < 40; i++) {
      await open.callTool({ name: 'search_tools', arguments: { query: QUERY } });
      await open.callTool({ name: 'call_tool', arguments: { name: 'mail_get_message', arguments: { messageId: `m${i}` } } });
    }
    // The open agent learned for itself…
    expect(await rankOf(open, 'mail_get_message')).toBe(1);
    // …and nothing crossed into the agent behind a token.
    expect(await rankOf(sec, 'mail_get_message')).toBe(before);
    // Nor through a remembered request of a destructive tool.
    for (let i = 0; i < 40; i++) {
      await open.callTool({ name: 'search_tools', arguments: { query: QUERY } });
      await open
        .callTool({ name: 'call_tool', arguments: { name: 'mail_delete_message', arguments: { messageId: `m${i}` }, dryRun: true } })
        .catch(() => undefined);
    }
    expect(await rankOf(sec, 'mail_delete_message')).toBe(beforeDestructive);
  }, 180_000);
});

describe('approval budgets per agent', () => {
  it("three big waiting calls on /mcp do not make another agent's approval-needing call fail", async () => {
    const open = await connect('');
    const sec2 = await connect('/sec2', TOKEN2);
    // 3 × 2.8 MB is past one agent's 8 MB budget: the open agent's third call is refused…
    const big = (c: string) => ({ name: `${c}.txt`, content: c.repeat(2_800_000) });
    const waiting = ['a', 'b'].map((c) => open.callTool({ name: 'drive_upload_file', arguments: big(c) }, { timeout: 600_000 }));
    await until(async () => (await api.pendingApprovals({ agent: 'default' })).length === 2, 'two calls of /mcp to wait');
    const third = await open.callTool({ name: 'drive_upload_file', arguments: big('c') });
    expect(textOf(third)).toMatch(/this agent's calls waiting for the user's approval already hold the most argument data/);
    // …but the other agent's call waits for the user as it should, rather than failing at once.
    let settled = false;
    const other = sec2.callTool({ name: 'drive_upload_file', arguments: big('d') }, { timeout: 600_000 }).finally(() => (settled = true));
    await until(
      async () => settled || (await api.pendingApprovals({ agent: 'sec2' })).length > 0,
      "the other agent's call to wait for approval",
    );
    expect(settled, "the other agent's call was answered at once (refused) instead of waiting").toBe(false);
    // The user answers; every waiting call ends.
    await api.approve({ agent: 'default', tool: 'drive_upload_file', deny: true });
    await api.approve({ agent: 'sec2', tool: 'drive_upload_file', deny: true });
    for (const r of await Promise.all([...waiting, other])) expect(textOf(r)).toMatch(/did not allow/);
  }, 120_000);
});
