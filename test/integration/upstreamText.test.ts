// Text an upstream sends is shown as plain text everywhere (shared/plainText.ts): a real stdio server
// whose tool description and title hold a right-to-left override, bidi isolates and marks and terminal
// escapes reaches the toolbox, the agent's tools/list, search and the approvals inbox without them.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FIXTURES, tsxArgs } from '../helpers/processes.js';
import { connectClient, startApp, type TestApp, type TestClient } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

const HOSTILE = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

describe('an upstream whose tool text holds bidi controls and terminal escapes', () => {
  it('reaches the toolbox, tools/list, search and the approvals inbox without them', async () => {
    const t: TestApp = await startApp({
      upstreams: {
        rough: {
          command: process.execPath,
          args: tsxArgs(join(FIXTURES, 'rough.ts')),
          env: {
            // Shown as it is, "Reads the text. \u202eeteled lla\u202c" reads "Reads the text. all deleted".
            ROUGH_ECHO_DESCRIPTION:
              'Reads the text.\r\n\u202eseliF lla seteleD\u202c \u2067iso\u2069\u200e\u200f\u061c \u001b[31mred\u001b[0m\u0007\u009b\tend',
            ROUGH_ECHO_TITLE: 'Echo \u202eohce\u202c',
            ROUGH_ECHO_WRITES: '1',
          },
        },
      },
      pins: ['rough__echo'],
      agents: [{ id: 'default', approvals: 'ask' }],
    });
    cleanups.push(() => t.stop());
    const c: TestClient = await connectClient(`${t.url}/mcp`, 'auto');
    cleanups.push(() => c.close());
    const listed = await c.until((tools) => tools.some((x) => x.name === 'rough__echo'));
    const echo = listed.find((x) => x.name === 'rough__echo')!;
    expect(echo.description).toBe('Reads the text.\nseliF lla seteleD iso [31mred[0m\tend');
    expect(echo.title).toBe('Echo ohce');
    expect(echo.annotations?.title).toBe('Echo ohce');
    const entry = t.app.catalog.toolbox().resolve('rough__echo')!;
    expect(JSON.stringify(entry)).not.toMatch(HOSTILE);
    // Search results quote descriptions too.
    const found = await c.client.callTool({ name: 'search_tools', arguments: { query: 'reads the text' } });
    expect(JSON.stringify(found)).not.toMatch(/\\u202e|\u202e/i);
    // The approvals card's text: a call waiting for the user.
    const waiting = c.client.callTool({ name: 'rough__echo', arguments: { text: 'hi' } }).catch(() => undefined);
    const pending = await until(async () => {
      const p = await t.app.control.pendingApprovals({});
      return p.length > 0 ? p : undefined;
    }, 'the call waiting for approval');
    expect(pending[0]!.description).toBe(echo.description);
    await t.app.control.approve({ agent: 'default', tool: 'rough__echo', id: pending[0]!.id, deny: true });
    await waiting;
  }, 60_000);
});
