// A call waiting for approval answers its client before the client's own timeout (here shortened),
// over real HTTP in both eras: the client reads "waits for the user", the call stays in the inbox, and
// its retry after the grant runs at once without a second ask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { systemClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';

/** The client gives up after CLIENT_TIMEOUT_MS; Working Set must answer first (ANSWER_MS). */
const ANSWER_MS = 800;
const CLIENT_TIMEOUT_MS = 20_000;

let app: App;
let url: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  const stateDir = tempDir();
  const config = validateConfig(
    { stateDir, listen: { host: '127.0.0.1', port: 0 }, upstream: { builtin: 'demo' }, timeouts: { approvalAnswerMs: ANSWER_MS } },
    stateDir,
  );
  app = createApp({ config, clock: systemClock, log: new MemoryLogger() });
  url = (await app.start({ schedule: false })).url;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app?.stop();
});

describe('a call waiting for approval, over HTTP', () => {
  for (const [era, tool] of [
    ['auto', 'mail_send_message'],
    ['legacy', 'calendar_create_event'],
  ] as const) {
    it(`answers a ${era === 'auto' ? '2026-07-28' : '2025'} client in time, and its retry runs once allowed`, async () => {
      const c = await connectClient(`${url}/mcp`, era, `answer-${era}`);
      clients.push(c);
      const args =
        tool === 'mail_send_message'
          ? { to: ['a@example.com'], subject: 'hi', body: 'x' }
          : { title: 'Retro', start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' };
      const first = await c.client.callTool({ name: tool, arguments: args }, { timeout: CLIENT_TIMEOUT_MS } as never);
      expect(first.isError).toBe(true);
      expect(textOf(first)).toMatch(new RegExp(`${tool} has not run yet: it waits for the user's approval`));
      const inbox = await app.control.pendingApprovals({});
      expect(inbox.map((p) => p.tool)).toEqual([tool]);
      await app.control.approve({ agent: 'default', tool });
      const retry = await c.client.callTool({ name: tool, arguments: args }, { timeout: CLIENT_TIMEOUT_MS } as never);
      expect(retry.isError).toBeFalsy();
      expect(await app.control.pendingApprovals({})).toEqual([]);
    }, 60_000);
  }
});
