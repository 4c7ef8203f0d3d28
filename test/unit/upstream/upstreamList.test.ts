// An upstream's tools/list as the connection reads it: page by page, without the SDK's whole-list
// schema parse (a malformed tool is left out, not the whole list), and re-lists after list_changed
// that deliver the newest list last.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport, type Tool } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { UpstreamConnection } from '../../../src-main/core/upstream/connection.js';
import { isWellFormedTool } from '../../../src-main/core/upstream/toolList.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { until, withDeadline } from '../../helpers/wait.js';

const tool = (name: string, description = `${name} does it`): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

type Fake = { tools: unknown[]; pageSize: number; lists: number; gate?: Promise<void>; server?: Server };

function fakeUpstream(fake: Fake, log = new MemoryLogger()): { conn: UpstreamConnection; changes: string[][]; log: MemoryLogger } {
  const changes: string[][] = [];
  const conn = new UpstreamConnection({
    vendor: 'fake',
    config: { kind: 'builtin' } as never,
    log,
    clientName: 'test',
    now: () => 0,
    connectMs: 10_000,
    maxResultBytes: 1 << 20,
    onToolsChanged: (tools) => changes.push(tools.map((t) => `${t.name}:${t.description}`)),
    onUp: () => {},
    transport: async () => {
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      const server = new Server({ name: 'fake', version: '1' }, { capabilities: { tools: { listChanged: true } } });
      server.setRequestHandler('tools/list', async (req) => {
        fake.lists++;
        // What the upstream lists is read when the request arrives; the answer may be held back.
        const snapshot = fake.tools.slice();
        const gate = fake.gate;
        if (gate) await gate;
        if (!fake.pageSize) return { tools: snapshot } as never;
        const start = Number(req.params?.cursor ?? 0);
        const next = start + fake.pageSize;
        return { tools: snapshot.slice(start, next), ...(next < snapshot.length ? { nextCursor: String(next) } : {}) } as never;
      });
      await server.connect(serverSide);
      fake.server = server;
      return { transport: client, dispose: () => void server.close() };
    },
  });
  open.push(conn);
  return { conn, changes, log };
}

const open: UpstreamConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

describe('tools/list from an upstream', () => {
  it('leaves out a malformed tool and keeps the rest (the SDK refused the whole list for one bad tool)', async () => {
    const fake: Fake = {
      tools: [
        tool('a'),
        { name: 'no_schema', description: 'x' },
        tool('b'),
        { name: 'bad_description', description: 7, inputSchema: { type: 'object' } },
      ],
      pageSize: 0,
      lists: 0,
    };
    const { conn, log } = fakeUpstream(fake);
    const tools = await withDeadline(conn.listTools(10_000), 'the list');
    expect(tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(log.lines.join('\n')).toMatch(/2 malformed tool\(s\), left out: no_schema, bad_description/);
  });

  it("keeps the first of a name listed twice, so the upstream's tool count is the toolbox's", async () => {
    const fake: Fake = { tools: [tool('a'), tool('b'), { ...tool('a'), description: 'the second a' }], pageSize: 2, lists: 0 };
    const { conn, log } = fakeUpstream(fake);
    const tools = await withDeadline(conn.listTools(10_000), 'the list');
    expect(tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(tools[0]!.description).not.toBe('the second a');
    expect(log.lines.join('\n')).toMatch(/listed 1 tool name\(s\) more than once; the first of each is kept: a/);
  });

  it('follows every page', async () => {
    const fake: Fake = { tools: Array.from({ length: 95 }, (_, i) => tool(`t${i}`)), pageSize: 10, lists: 0 };
    const { conn } = fakeUpstream(fake);
    const tools = await withDeadline(conn.listTools(10_000), 'the paged list');
    expect(tools).toHaveLength(95);
    expect(fake.lists).toBe(10);
  });

  it('checks the fields the proxy reads', () => {
    expect(isWellFormedTool(tool('x'))).toBe(true);
    expect(isWellFormedTool({ ...tool('x'), annotations: { readOnlyHint: true }, outputSchema: { type: 'object' }, title: 'X' })).toBe(
      true,
    );
    for (const bad of [
      null,
      [],
      { name: '' },
      { name: 'x', inputSchema: [] },
      { name: 'x', inputSchema: { properties: [] } },
      { ...tool('x'), title: 1 },
      { ...tool('x'), annotations: 'ro' },
      { ...tool('x'), outputSchema: true },
    ]) {
      expect(isWellFormedTool(bad)).toBe(false);
    }
  });

  it('after a change announced while the re-list for an earlier one is held up, the newest list is delivered last', async () => {
    const fake: Fake = { tools: [tool('a', 'v0')], pageSize: 0, lists: 0 };
    const { conn, changes } = fakeUpstream(fake);
    await withDeadline(conn.listTools(10_000), 'the first list');
    let release!: () => void;
    fake.gate = new Promise<void>((r) => (release = r));
    fake.tools = [tool('a', 'v1')];
    const listsBefore = fake.lists;
    await fake.server!.sendToolListChanged();
    await until(() => fake.lists > listsBefore, 'the re-list for the first change');
    // A second change while the first re-list is held: it lists v2, and is answered at once.
    fake.gate = undefined;
    fake.tools = [tool('a', 'v2')];
    await fake.server!.sendToolListChanged();
    // A re-list that did not wait for the one in flight would reach the upstream now (after the SDK's
    // 30 ms debounce); give it that chance, within a deadline, before the first list is let go.
    await until(() => fake.lists > listsBefore + 1, 'a second list while the first is held', 500).catch(() => {});
    release();
    // Both changes are delivered (v1, then v2); the held v1 list must not land after v2.
    await until(() => changes.length >= 2 && !conn['relistOnChange'].busy, 'both changes delivered', 10_000);
    expect(changes.at(-1)).toEqual(['a:v2']);
  });
});
