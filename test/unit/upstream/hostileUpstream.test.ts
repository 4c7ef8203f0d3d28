// What an upstream sends that no client should get as it is: tool names with
// control characters, and results nested too deep to serialize.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { isWellFormedTool, shownName } from '../../../src-main/core/upstream/toolList.js';
import { MAX_RESULT_DEPTH } from '../../../src-main/core/proxy/toolRouter.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

describe('upstream tool names with control characters', () => {
  it('are left out of the toolbox (ESC, BEL, newline, bidi override, zero-width), and shown escaped', () => {
    for (const name of ['x\u001b[2Jy', 'ring\u0007', 'two\nlines', 'evil\u202egnp', 'zero\u200bwidth', 'nul\u0000'])
      expect(isWellFormedTool({ name, inputSchema: { type: 'object' } }), JSON.stringify(name)).toBe(false);
    expect(isWellFormedTool({ name: 'mail_send-v2.ok', inputSchema: { type: 'object' } })).toBe(true);
    expect(isWellFormedTool({ name: 'écrire_fichier', inputSchema: { type: 'object' } })).toBe(true);
    expect(shownName('x\u001b]0;pwned\u0007\u202e')).toBe('x\\u001b]0;pwned\\u0007\\u202e');
  });
});

class DeepTwin extends TwinUpstream {
  depth = 5_000;
  override async callTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    this.calls.push({ name, args });
    const root: Record<string, unknown> = {};
    let at = root;
    for (let i = 0; i < this.depth; i++) at = (at.a = {}) as Record<string, unknown>;
    return { content: [{ type: 'text', text: 'deep' }], structuredContent: root };
  }
}

describe('an upstream result nested 5,000 levels deep', () => {
  it('is answered with a sentence and logged, not -32603 "Maximum call stack size exceeded"', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mws-deep-'));
    const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
    const twin = new DeepTwin('v', [twinTool('deep', true)]);
    const log = new MemoryLogger();
    app = createApp({ config, clock: new ManualClock(), log, connect: () => twin });
    await app.start({ listen: false, schedule: false });
    const r = await app.router.callTool('default', 'v__deep', {}, { via: 'direct', client: 'test', session: undefined });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r)).toMatch(new RegExp(`nested more than ${MAX_RESULT_DEPTH} levels deep`));
    expect(log.lines.join('\n')).toMatch(/upstream "v" answered v__deep with a result nested more than/);
    // A result of ordinary depth passes through unchanged.
    twin.depth = 20;
    const ok = await app.router.callTool('default', 'v__deep', {}, { via: 'direct', client: 'test', session: undefined });
    expect(ok.isError).toBeUndefined();
    expect(() => JSON.stringify(ok)).not.toThrow();
  });
});
