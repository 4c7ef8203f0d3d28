// The approvals inbox end to end: every agent's waiting calls in one list with what the tool does and
// how long is left; allow once, always allow, deny; standing grants withdrawn; and a client whose
// request would time out is kept alive by progress while it waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';

/** Short in tests so several progress notices fit inside the client's own (shortened) timeout. */
const KEEPALIVE_MS = 250;
const CLIENT_TIMEOUT_MS = 4000;

let app: App;
let url: string;
const clients: TestClient[] = [];

async function until<T>(what: string, fn: () => Promise<T | undefined>, deadlineMs = 15_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const waiting = (agent: string, tool: string) =>
  until(`${tool} waiting for ${agent}`, async () =>
    (await app.control.pendingApprovals({})).find((p) => p.agent === agent && p.tool === tool),
  );

beforeAll(async () => {
  const stateDir = tempDir();
  const config = validateConfig(
    {
      stateDir,
      listen: { host: '127.0.0.1', port: 0 },
      upstream: { builtin: 'demo' },
      agents: [{ id: 'default' }, { id: 'codex', name: 'Codex' }],
    },
    stateDir,
  );
  app = createApp({ config, clock: systemClock, log: new MemoryLogger(), approvalKeepAliveMs: KEEPALIVE_MS });
  url = (await app.start({ schedule: false })).url;
  clients.push(await connectClient(`${url}/mcp`, 'auto', 'main'), await connectClient(`${url}/mcp/codex`, 'legacy', 'codex-cli'));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app?.stop();
});

describe('the approvals inbox', () => {
  it('lists waiting calls of every agent with description, kind, waited and left', async () => {
    const [main, codex] = clients as [TestClient, TestClient];
    const a = main.client.callTool({ name: 'mail_send_message', arguments: { to: ['a@example.com'], subject: 'hi', body: 'x' } });
    const b = codex.client.callTool({ name: 'drive_delete_file', arguments: { fileId: 'f1' } });
    await waiting('default', 'mail_send_message');
    await waiting('codex', 'drive_delete_file');
    const inbox = await app.control.pendingApprovals({});
    expect(inbox.map((p) => [p.agent, p.tool, p.kind])).toEqual(
      expect.arrayContaining([
        ['default', 'mail_send_message', 'write'],
        ['codex', 'drive_delete_file', 'destructive'],
      ]),
    );
    const mail = inbox.find((p) => p.tool === 'mail_send_message')!;
    expect(mail.description).toMatch(/send an email/);
    expect(mail.expiresAt - mail.since).toBe(120_000);
    expect(mail.now).toBeGreaterThanOrEqual(mail.since);
    // Allow once: the call runs, nothing is remembered, the next call asks again.
    expect(await app.control.approve({ agent: 'default', tool: 'mail_send_message', once: true, id: mail.id })).toMatchObject({
      decided: 1,
      remembered: false,
    });
    expect(textOf(await a)).toContain('"ok":true');
    expect(await app.control.grants({ agent: 'default' })).toEqual([]);
    // Deny answers the codex call with a sentence.
    expect(await app.control.approve({ agent: 'codex', tool: 'drive_delete_file', deny: true })).toMatchObject({
      decided: 1,
      withdrawn: false,
    });
    expect(textOf((await b) as CallToolResult)).toMatch(/did not allow drive_delete_file/);
  });

  it('always allow makes a standing grant that is listed, and withdrawing it makes the tool ask again', async () => {
    const main = clients[0]!;
    const first = main.client.callTool({
      name: 'calendar_create_event',
      arguments: { title: 'Retro', start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' },
    });
    await waiting('default', 'calendar_create_event');
    await app.control.approve({ agent: 'default', tool: 'calendar_create_event' });
    await first;
    expect(await app.control.grants({})).toEqual([
      expect.objectContaining({ agent: 'default', tool: 'calendar_create_event', kind: 'write', available: true }),
    ]);
    expect(await app.control.revokeGrant({ agent: 'default', tool: 'calendar_create_event' })).toEqual({
      tool: 'calendar_create_event',
      revoked: true,
    });
    expect(await app.control.grants({})).toEqual([]);
    const again = main.client.callTool({
      name: 'calendar_create_event',
      arguments: { title: 'Retro', start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' },
    });
    const p = await waiting('default', 'calendar_create_event');
    expect(p.withdrawn).toBe(false);
    await app.control.approve({ agent: 'default', tool: 'calendar_create_event', deny: true });
    expect((await again).isError).toBe(true);
  });

  it('deny on an allowed tool withdraws its grant (it used to answer "Denied 0" and keep it)', async () => {
    await app.control.approve({ agent: 'codex', tool: 'mail_create_draft' });
    expect((await app.control.grants({ agent: 'codex' })).map((g) => g.tool)).toEqual(['mail_create_draft']);
    expect(await app.control.approve({ agent: 'codex', tool: 'mail_create_draft', deny: true })).toMatchObject({
      decided: 0,
      withdrawn: true,
    });
    expect(await app.control.grants({ agent: 'codex' })).toEqual([]);
  });

  for (const era of ['auto', 'legacy'] as const) {
    it(`keeps a ${era === 'auto' ? '2026-07-28' : '2025'} client's request alive with progress while it waits`, async () => {
      const c = await connectClient(`${url}/mcp`, era, `keepalive-${era}`);
      clients.push(c);
      const progress: Array<{ progress: number; message?: string }> = [];
      const call = c.client.callTool({ name: 'mail_archive_message', arguments: { messageId: 'm1' } }, {
        timeout: CLIENT_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: (p: { progress: number; message?: string }) => progress.push(p),
      } as never);
      await waiting('default', 'mail_archive_message');
      // Longer than the client's own timeout passes while the user has not answered.
      const started = Date.now();
      await until(
        'progress past the client timeout',
        async () => (Date.now() - started > CLIENT_TIMEOUT_MS * 1.5 && progress.length >= 3 ? true : undefined),
        60_000,
      );
      expect(progress[0]!.message).toMatch(/Waiting for the user to approve mail_archive_message \(\d+ s left\)/);
      await app.control.approve({ agent: 'default', tool: 'mail_archive_message', once: true });
      expect(textOf(await call)).toContain('"ok":true');
    }, 90_000);
  }
});
