// Agents end to end through a real `mws serve`: separate working sets, promote/demote, approvals
// answered from the CLI, and the CLI's views of it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { ROOT, spawnTs, waitForOutput, type Running } from '../helpers/processes.js';
import { connectClient, tempDir, textOf, type TestClient } from '../helpers/app.js';

const MWS = join(ROOT, 'src-main', 'cli', 'run.ts');
let serve: Running;
let cfg: string;
let url: string;
const c: Record<'main' | 'bot', TestClient> = {} as never;

function mws(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const r = spawnTs(MWS, [...args, '--config', cfg]);
  return new Promise((resolve) => r.proc.once('exit', (code) => resolve({ code, out: r.stdout(), err: r.stderr() })));
}
const names = (tools: Tool[]) => tools.map((t) => t.name).filter((n) => !['search_tools', 'call_tool', 'promote', 'demote'].includes(n));
/** Each `mws` run is a new Node process: on a busy 2-core machine several take seconds each. */
const CLI_SLOW = { timeout: 150_000 };
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as unknown;

beforeAll(async () => {
  const dir = tempDir();
  cfg = join(dir, 'config.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      upstream: { builtin: 'demo' },
      stateDir: join(dir, 'state'),
      // Port 0: the OS picks one; the CLI finds the instance through the lock in its state folder.
      listen: { port: 0 },
      agents: [
        { id: 'default', name: 'Main', cap: 5 },
        { id: 'bot', approvals: 'read-only', idleWindowDays: 7 },
      ],
    }),
  );
  serve = spawnTs(MWS, ['serve', '--config', cfg]);
  url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
  c.main = await connectClient(url, 'auto', 'main-client');
  c.bot = await connectClient(`${url}/bot`, 'legacy', 'bot-client');
});
afterAll(async () => {
  await Promise.all(Object.values(c).map((x) => x?.close()));
  await serve?.kill();
});

describe('two agents on one toolbox', () => {
  it('each promote into their own list, and only the agent that changed hears list_changed', async () => {
    const heard = c.main.nextChange();
    const r = await c.main.client.callTool({ name: 'promote', arguments: { name: 'mail_send_message' } });
    expect(JSON.parse(textOf(r))).toMatchObject({ tool: 'mail_send_message', inWorkingSet: true, changed: true, size: 1, cap: 5 });
    expect(names(await heard)).toEqual(['mail_send_message']);
    expect(names((await c.bot.client.listTools()).tools)).toEqual([]);
    expect(c.bot.changes).toHaveLength(0);

    const heardBot = c.bot.nextChange();
    await c.bot.client.callTool({ name: 'promote', arguments: { name: 'drive_search_files' } });
    expect(names(await heardBot)).toEqual(['drive_search_files']);
    expect(names((await c.main.client.listTools()).tools)).toEqual(['mail_send_message']);
  });

  it('answers an unknown name with tool_not_found and close matches', async () => {
    const r = await c.main.client.callTool({ name: 'promote', arguments: { name: 'mail_send_mesage' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^tool_not_found: No tool named "mail_send_mesage"\. Close matches: .*mail_send_message/);
    expect(r.structuredContent).toMatchObject({ error: 'tool_not_found' });
  });

  it('demotes on request: the tool leaves the list and stays callable', async () => {
    await c.bot.client.callTool({ name: 'promote', arguments: { name: 'drive_read_file' } });
    await c.bot.until((t) => names(t).includes('drive_read_file'));
    const r = await c.bot.client.callTool({ name: 'demote', arguments: { name: 'drive_read_file' } });
    expect(JSON.parse(textOf(r))).toMatchObject({ inWorkingSet: false, changed: true, size: 1 });
    expect(names(await c.bot.until((t) => !names(t).includes('drive_read_file')))).toEqual(['drive_search_files']);
    expect(textOf(await c.bot.client.callTool({ name: 'drive_read_file', arguments: { fileId: 'f1' } }))).toContain('Sample drive content');
  });
});

describe('approvals', () => {
  it("holds a write tool's first call until the user allows it with `mws approve`, then remembers", CLI_SLOW, async () => {
    const call = c.main.client.callTool({ name: 'mail_send_message', arguments: { to: ['a@example.com'], subject: 'hi', body: 'x' } });
    let pending: Array<{ tool: string; agent: string; arguments: unknown }> = [];
    for (let i = 0; i < 50 && pending.length === 0; i++) {
      pending = lastJson((await mws(['approve', '--json'])).out) as typeof pending;
    }
    expect(pending).toEqual([
      expect.objectContaining({
        agent: 'default',
        tool: 'mail_send_message',
        arguments: { to: ['a@example.com'], subject: 'hi', body: 'x' },
      }),
    ]);
    const approved = await mws(['approve', 'mail_send_message', '--agent', 'default']);
    expect(approved.code).toBe(0);
    expect(approved.out).toMatch(/Allowed mail_send_message for default; 1 waiting call will run now/);
    expect(textOf(await call)).toContain('"ok":true');
    // Remembered: the next call runs at once, also after a demotion and re-promotion.
    await mws(['demote', 'mail_send_message', '--agent', 'default']);
    await mws(['promote', 'mail_send_message', '--agent', 'default']);
    const again = await c.main.client.callTool({
      name: 'mail_send_message',
      arguments: { to: ['b@example.com'], subject: 's', body: 'b' },
    });
    expect(textOf(again)).toContain('"ok":true');
  });

  it('denies with `mws approve --deny`', CLI_SLOW, async () => {
    const call = c.main.client.callTool({ name: 'call_tool', arguments: { name: 'drive_delete_file', arguments: { fileId: 'f9' } } });
    for (let i = 0; i < 50; i++) if ((lastJson((await mws(['approve', '--json'])).out) as unknown[]).length) break;
    expect((await mws(['approve', 'drive_delete_file', '--agent', 'default', '--deny'])).out).toMatch(/Denied 1 waiting call/);
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/did not allow drive_delete_file/);
  });

  it('refuses non-read tools for a read-only agent, with a sentence', async () => {
    const r = await c.bot.client.callTool({ name: 'drive_delete_file', arguments: { fileId: 'f1' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/may only run read-only tools/);
  });
});

describe('the CLI views', () => {
  it('mws sweep --dry-run --now shows what a later sweep would demote, as JSON on the last line', CLI_SLOW, async () => {
    const later = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const r = await mws(['sweep', '--dry-run', '--now', later, '--json']);
    expect(r.code).toBe(0);
    expect(lastJson(r.out)).toEqual([{ agent: 'bot', tool: 'drive_search_files', action: 'demote', cause: 'idle' }]);
    const human = await mws(['sweep', '--dry-run', '--now', later, '--agent', 'bot']);
    expect(human.out).toMatch(/bot\s+drive_search_files\s+demote\s+unused past the idle window/);
    const bad = await mws(['sweep', '--dry-run', '--now', 'next week']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/"now" must be an ISO time/);
  });

  it('mws report shows the lists, their cost against the whole toolbox in tokens, calls and history', async () => {
    const r = await mws(['report', '--json']);
    const reports = lastJson(r.out) as Array<{
      agent: string;
      listed: Array<{ tool: string; promotedBy: string }>;
      listedTokens: number;
      toolboxTokens: number;
      calls: Array<{ tool: string; ok: number }>;
      history: Record<string, { promote: number; demote: number }>;
    }>;
    const main = reports.find((x) => x.agent === 'default')!;
    expect(main.listed.map((m) => [m.tool, m.promotedBy])).toEqual([['mail_send_message', 'user']]);
    expect(main.listedTokens).toBeGreaterThan(200);
    expect(main.listedTokens).toBeLessThan(main.toolboxTokens / 5);
    expect(main.calls.find((x) => x.tool === 'mail_send_message')?.ok).toBe(2);
    expect(main.history).toMatchObject({ agent: { promote: 1, demote: 0 }, user: { promote: 1, demote: 1 } });
    const text = await mws(['report', '--agent', 'bot']);
    expect(text.out).toMatch(/Agent bot .*1 of 20 tools listed, idle window 7 days/);
    // The toolbox as the window and the tray count it: without the meta-tools, which are named apart.
    expect(text.out).toMatch(/tokens for the whole toolbox, 67 tools from 1 upstream \+ 4 meta-tools/);
  });

  it('mws cycle --dry-run prints the decision table without applying it', async () => {
    const r = await mws(['cycle', '--dry-run', '--json']);
    const table = lastJson(r.out) as { decisions: unknown[]; usage: Record<string, Array<{ tool: string; sessions: number }>> };
    expect(table.usage.default!.find((u) => u.tool === 'mail_send_message')).toMatchObject({ sessions: 1 });
    expect((await mws(['promote', 'no_such_tool', '--agent', 'default'])).err).toMatch(/No tool named "no_such_tool"/);
  });
});
