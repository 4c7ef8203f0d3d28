// An upstream whose config names a value nobody gave yet says `needs-value` with what it needs — not
// "down", never "up" — and is not retried until the value comes; once given, it connects, and the value
// never shows in its errors.
import { PassThrough } from 'node:stream';
import { UpstreamJournal } from '../../../src-main/core/upstream/journal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { UpstreamConnection } from '../../../src-main/core/upstream/connection.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { MemorySecretStore } from '../../../src-main/core/secrets/store.js';
import { statusWord } from '../../../src-main/shared/statusWords.js';
import { notServing } from '../../../src-main/cli/upstreamNotes.js';
import { buildTrayMenu } from '../../../src-main/desktop/trayMenu.js';
import { notices } from '../../../src-main/desktop/notices.js';
import type { StatusView } from '../../../src-main/core/control/api.js';

const SECRET = 'sk-live-7f3a9c';
const open: UpstreamConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

function connection(secrets: MemorySecretStore, log = new MemoryLogger(), extra: { journal?: UpstreamJournal; stderr?: PassThrough } = {}) {
  let starts = 0;
  const conn = new UpstreamConnection({
    vendor: 'brave',
    config: { kind: 'stdio', command: 'brave-mcp', args: [], env: { BRAVE_API_KEY: '${input:BRAVE_API_KEY}' }, cwd: undefined },
    log,
    clientName: 'test',
    now: () => 0,
    connectMs: 10_000,
    maxResultBytes: 1 << 20,
    onToolsChanged: () => {},
    onUp: () => {},
    values: { secrets, env: {} },
    ...(extra.journal ? { journal: extra.journal } : {}),
    transport: async () => {
      starts++;
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      const server = new Server({ name: 'brave', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools: [{ name: 'search', inputSchema: { type: 'object' } }] }) as never);
      // A careless server quotes the key it was given in its error.
      server.setRequestHandler('tools/call', async () => {
        throw new Error(`invalid subscription for key ${SECRET}`);
      });
      await server.connect(serverSide);
      return { transport: client, dispose: () => void server.close(), ...(extra.stderr ? { stderr: extra.stderr } : {}) };
    },
  });
  open.push(conn);
  return { conn, log, starts: () => starts };
}

describe('an upstream that needs a value', () => {
  it('says needs-value with the key, is not started nor retried, and comes up once the value is given', async () => {
    const secrets = new MemorySecretStore();
    const { conn, starts } = connection(secrets);
    await expect(conn.listTools(5_000)).rejects.toMatchObject({ code: 'upstream_needs_value' });
    const info = conn.info();
    expect(info).toMatchObject({ status: 'needs-value', needs: ['BRAVE_API_KEY'] });
    expect(info.lastError).toBe(
      'Upstream "brave" needs a value: BRAVE_API_KEY. Fill it in on the Upstreams screen, or run `mws upstream set brave BRAVE_API_KEY`.',
    );
    expect(statusWord(info)).toBe('needs a value: BRAVE_API_KEY');
    expect(starts()).toBe(0); // never started on the placeholder
    expect((conn as unknown as { retryTimer?: unknown }).retryTimer).toBeUndefined();
    // A call meanwhile gets the same sentence, and the status stays (no flicker to "starting").
    await expect(conn.callTool('search', {}, { timeoutMs: 5_000 })).rejects.toThrow(/needs a value: BRAVE_API_KEY/);
    expect(conn.info().status).toBe('needs-value');

    await secrets.set('upstreams.brave.inputs.BRAVE_API_KEY', SECRET);
    expect((await conn.listTools(5_000)).map((t) => t.name)).toEqual(['search']);
    expect(conn.info()).toMatchObject({ status: 'up' });
    expect(conn.info().needs).toBeUndefined();
    expect(starts()).toBe(1);
  });

  it("masks the value in the upstream's log view when the server prints it on stderr", async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('upstreams.brave.inputs.BRAVE_API_KEY', SECRET);
    const journal = new UpstreamJournal(() => 0);
    const stderr = new PassThrough();
    const { conn } = connection(secrets, new MemoryLogger(), { journal, stderr });
    await conn.listTools(5_000);
    stderr.write(`starting with key ${SECRET}\n`);
    await new Promise((r) => setImmediate(r));
    const text = journal
      .entries()
      .map((l) => l.text)
      .join('\n');
    expect(text).toContain('starting with key ••••');
    expect(text).not.toContain(SECRET);
  });

  it('masks the value in the errors it forwards (a server that quotes its own key)', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('upstreams.brave.inputs.BRAVE_API_KEY', SECRET);
    const { conn } = connection(secrets);
    await conn.listTools(5_000);
    const err = await conn.callTool('search', {}, { timeoutMs: 5_000 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toContain('invalid subscription for key ••••');
    expect(err?.message).not.toContain(SECRET);
    // The stack was written with the first message: printed (mws's internal-error line), it must not quote it.
    expect(err?.stack).not.toContain(SECRET);
    expect(String(err)).not.toContain(SECRET);
  });

  it('CLI notes and the tray say what to fill in, apart from what is down', () => {
    const rows = [
      {
        vendor: 'brave',
        kind: 'stdio' as const,
        status: 'needs-value' as const,
        needs: ['BRAVE_API_KEY'],
        era: undefined,
        lastError: 'x',
        toolCount: 0,
        source: 'none' as const,
        config: { command: 'brave-mcp' },
      },
      {
        vendor: 'mail',
        kind: 'http' as const,
        status: 'down' as const,
        era: undefined,
        lastError: 'ECONNREFUSED',
        toolCount: 3,
        source: 'file' as const,
        config: { url: 'http://127.0.0.1:9/mcp' },
      },
    ];
    expect(notServing(rows)).toEqual([
      'upstream "brave" needs a value: BRAVE_API_KEY (`mws upstream set brave BRAVE_API_KEY`)',
      'upstream "mail" is down: Nothing answers at http://127.0.0.1:9/mcp. Check that the server is running and that the host and port are right (serving its last-good 3 tools).',
    ]);
    const status = {
      url: 'http://127.0.0.1:4484',
      toolboxSize: 3,
      upstreams: rows,
      agents: [],
      demotionPaused: false,
      proxyPaused: false,
      pendingApprovals: 0,
      restartNeeded: false,
      editable: true,
    } satisfies StatusView;
    const labels = buildTrayMenu(status).flatMap((m) => ('label' in m ? [m.label] : []));
    expect(labels).toContain('Upstreams: 0 of 2 upstreams up (down: mail)');
    expect(labels).toContain('Toolbox: 3 tools from 1 upstream · 4 meta-tools');
    expect(labels).toContain('brave needs a value: BRAVE_API_KEY…');
    const prefs = { notifyDemotions: true, notifyUpstreams: true, notifyApprovals: true, startAtLogin: false };
    expect(notices([{ type: 'upstreamStatus', vendor: 'brave', status: 'needs-value' }], prefs, (id) => id)).toEqual([
      {
        title: 'Upstream "brave" needs a value',
        body: expect.stringMatching(/Upstreams screen, or with `mws upstream set`/),
        open: '#/upstreams',
      },
    ]);
  });
});
