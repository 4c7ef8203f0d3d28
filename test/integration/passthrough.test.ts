// Everything but the tool list passes through: resources, templates, prompts, completions, logging,
// progress, and the upstream's sampling/elicitation/roots requests routed to the calling client.
// Upstream: the real @modelcontextprotocol/server-everything over stdio (a 2025-era SDK v1 peer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { startApp, textOf, type TestApp } from '../helpers/app.js';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';

const bin = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
let t: TestApp;
const open: Client[] = [];

beforeAll(async () => {
  t = await startApp({
    upstreams: { ev: { command: process.execPath, args: [bin, 'stdio'] } },
    agents: [{ id: 'default', approvals: 'allow' }],
  });
  await t.app.router.ready();
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await t?.stop();
});

type Seen = { logs: unknown[] };
async function connect(mode: 'auto' | 'legacy', withCapabilities: boolean): Promise<{ client: Client; seen: Seen }> {
  const seen: Seen = { logs: [] };
  const client = new Client({ name: `pass-${mode}`, version: '1.0.0' }, {
    versionNegotiation: { mode },
    ...(withCapabilities ? { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } } : {}),
  } as never);
  if (withCapabilities) {
    client.setRequestHandler(
      'sampling/createMessage',
      async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled by the test client' }, model: 'test-model' }) as never,
    );
    client.setRequestHandler(
      'elicitation/create',
      async () => ({ action: 'accept', content: { name: 'Ada Lovelace', check: true } }) as never,
    );
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work/project', name: 'project' }] }) as never);
  }
  client.setNotificationHandler('notifications/message', (n) => void seen.logs.push(n.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
  open.push(client);
  return { client, seen };
}

describe.each(['auto', 'legacy'] as const)('a %s client', (mode) => {
  it('sees the upstream resources, templates, prompts and completions, and reads them through', async () => {
    const { client } = await connect(mode, false);
    const caps = client.getServerCapabilities();
    expect(caps).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'))!;
    const read = await client.readResource({ uri: doc.uri });
    expect(read.contents[0]?.uri).toBe(doc.uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate).join(' ')).toContain('demo://resource/dynamic/text/');
    const dyn = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect(JSON.stringify(dyn.contents)).toContain('7');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['ev__simple-prompt', 'ev__args-prompt', 'ev__completable-prompt']));
    const simple = await client.getPrompt({ name: 'ev__simple-prompt' });
    expect(simple.messages.length).toBeGreaterThan(0);
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'ev__completable-prompt' },
      argument: { name: 'department', value: 'Eng' },
    });
    expect(done.completion.values).toEqual(['Engineering']);
    await expect(client.getPrompt({ name: 'nosuch__simple-prompt' })).rejects.toThrow(/No prompt named/);
  }, 60_000);

  it("carries the caller's progress token upstream and its progress back", async () => {
    const { client } = await connect(mode, false);
    const progress: number[] = [];
    const r = await client.callTool({ name: 'ev__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, {
      onprogress: (p: { progress: number }) => progress.push(p.progress),
    } as never);
    expect(textOf(r)).toMatch(/completed/i);
    expect(progress).toEqual([1, 2, 3]);
  }, 60_000);
});

describe('a 2025 client that can sample, elicit and list roots', () => {
  it("answers the upstream's sampling, elicitation and roots requests for its own calls", async () => {
    const { client } = await connect('legacy', true);
    const sampled = await client.callTool({ name: 'ev__trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } });
    expect(textOf(sampled)).toContain('sampled by the test client');
    const elicited = await client.callTool({ name: 'ev__trigger-elicitation-request', arguments: {} });
    expect(textOf(elicited)).toContain('Ada Lovelace');
    const roots = await client.callTool({ name: 'ev__get-roots-list', arguments: {} });
    expect(textOf(roots)).toContain('file:///work/project');
  }, 60_000);

  it('refuses them with a sentence for a client that cannot', async () => {
    const { client } = await connect('legacy', false);
    const r = await client
      .callTool({ name: 'ev__trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } })
      .catch((e: Error) => ({ content: [{ type: 'text', text: e.message }] }));
    expect(textOf(r)).toMatch(/does not support sampling/);
  }, 60_000);

  it("forwards logging/setLevel and the upstream's log messages to the calling client", async () => {
    const { client, seen } = await connect('legacy', false);
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    // server-everything logs while simulated logging is on; the messages reach a caller with a call in flight.
    await client.callTool({ name: 'ev__trigger-long-running-operation', arguments: { duration: 2, steps: 2 } });
    await client.callTool({ name: 'ev__toggle-simulated-logging', arguments: {} });
    expect(seen.logs.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('resource subscriptions', () => {
  it('forward resources/updated to the 2025 session that subscribed, and not to another', async () => {
    const sub = await connect('legacy', false);
    const other = await connect('legacy', false);
    const updates: string[] = [];
    const otherUpdates: string[] = [];
    const got = new Promise<void>((resolve) =>
      sub.client.setNotificationHandler('notifications/resources/updated', (n) => {
        updates.push(n.params.uri);
        resolve();
      }),
    );
    other.client.setNotificationHandler('notifications/resources/updated', (n) => void otherUpdates.push(n.params.uri));
    const { resources } = await sub.client.listResources();
    const uri = resources[0]!.uri;
    await sub.client.subscribeResource({ uri });
    // server-everything sends an update at once for every URI subscribed on its (single) upstream session.
    await sub.client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
    await got;
    await sub.client.callTool({ name: 'ev__toggle-subscriber-updates', arguments: {} });
    await sub.client.unsubscribeResource({ uri });
    expect(updates).toContain(uri);
    expect(otherUpdates).toEqual([]);
  }, 60_000);
});

describe('an SDK v1 client (@modelcontextprotocol/sdk 1.x)', () => {
  it('lists and calls tools, reads resources and prompts, gets progress, and answers sampling', async () => {
    const { Client: V1Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport: V1Transport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { CreateMessageRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const v1 = new V1Client({ name: 'v1-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
    v1.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled by v1' },
      model: 'v1-model',
    }));
    await v1.connect(new V1Transport(new URL(`${t.url}/mcp`)));
    try {
      expect((await v1.listTools()).tools.map((x) => x.name)).toContain('search_tools');
      expect(textOf((await v1.callTool({ name: 'ev__echo', arguments: { message: 'from v1' } })) as { content?: unknown })).toContain(
        'from v1',
      );
      const { resources } = await v1.listResources();
      expect((await v1.readResource({ uri: resources[0]!.uri })).contents.length).toBeGreaterThan(0);
      expect((await v1.listPrompts()).prompts.map((p) => p.name)).toContain('ev__simple-prompt');
      const progress: number[] = [];
      await v1.callTool({ name: 'ev__trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      });
      expect(progress).toEqual([1, 2]);
      expect(
        textOf(
          (await v1.callTool({ name: 'ev__trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } })) as { content?: unknown },
        ),
      ).toContain('sampled by v1');
    } finally {
      await v1.close();
    }
  }, 60_000);
});

describe('a 2026-07-28 upstream that asks for input in its result (input_required)', () => {
  let u: TestApp;
  let fixture: Running;
  beforeAll(async () => {
    fixture = spawnTs(join(ROOT, 'test', 'fixtures', 'conformance', 'server.ts'));
    const port = Number((await waitForOutput(fixture, /PORT=(\d+)/, 'the conformance fixture'))[1]);
    u = await startApp({ upstreams: { cf: { url: `http://127.0.0.1:${port}/mcp` } }, agents: [{ id: 'default', approvals: 'allow' }] });
    await u.app.router.ready();
  }, 60_000);
  afterAll(async () => {
    await u?.stop();
    await fixture?.kill();
  });

  it.each(['auto', 'legacy'] as const)(
    'reaches a %s caller, which answers it, and the call completes',
    async (mode) => {
      expect(u.app.catalog.statuses()[0]).toMatchObject({ status: 'up', era: '2026-07-28' });
      const client = new Client({ name: `mrtr-${mode}`, version: '1.0.0' }, {
        versionNegotiation: { mode },
        capabilities: { sampling: {}, elicitation: { form: {} } },
      } as never);
      client.setRequestHandler(
        'sampling/createMessage',
        async () => ({ role: 'assistant', content: { type: 'text', text: `sampled for ${mode}` }, model: 'test-model' }) as never,
      );
      client.setRequestHandler(
        'elicitation/create',
        async () => ({ action: 'accept', content: { response: `answered by ${mode}` } }) as never,
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(`${u.url}/mcp`)));
      open.push(client);
      expect(textOf(await client.callTool({ name: 'cf__test_sampling', arguments: { prompt: 'hi' } }))).toBe(
        `LLM response: sampled for ${mode}`,
      );
      expect(textOf(await client.callTool({ name: 'cf__test_elicitation', arguments: { message: 'name?' } }))).toContain(
        `answered by ${mode}`,
      );
    },
    60_000,
  );
});
