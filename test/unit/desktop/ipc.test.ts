// The ControlApi over the IPC adapter, with a stand-in for ipcMain typed from electron.d.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { registerControlIpc, INVOKE_CHANNEL, EVENT_CHANNEL, REOPENED_CHANNEL, type IpcMainLike } from '../../../src-main/desktop/ipc.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

type Handler = (e: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

class StandInIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, payload: unknown): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`no handler for ${channel}`);
    return h({} as IpcMainInvokeEvent, payload);
  }
}

let app: App | undefined;
afterEach(async () => app?.stop());

async function setup() {
  const stateDir = mkdtempSync(join(tmpdir(), 'mws-ipc-'));
  const config = validateConfig({ stateDir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } }, stateDir);
  app = createApp({
    config,
    clock: new ManualClock(),
    log: new MemoryLogger(),
    connect: () => new TwinUpstream('v', [twinTool('read'), twinTool('write', false)]),
  });
  await app.start({ listen: false, schedule: false });
  const ipc = new StandInIpcMain();
  const sent: Array<{ channel: string; payload: unknown }> = [];
  const stop = registerControlIpc(ipc, app.control, app.events, (channel, payload) => sent.push({ channel, payload }));
  return { ipc, sent, stop };
}

describe('the ControlApi over IPC', () => {
  it('answers {method, args} on one channel with the control envelope, and pushes core events on the other', async () => {
    const { ipc, sent } = await setup();
    const status = (await ipc.invoke(INVOKE_CHANNEL, { method: 'status', args: {} })) as { ok: true; result: { toolboxSize: number } };
    expect(status.ok).toBe(true);
    expect(status.result.toolboxSize).toBe(2);
    const r = await ipc.invoke(INVOKE_CHANNEL, { method: 'promote', args: { agent: 'default', tool: 'v__read' } });
    expect(r).toEqual({ ok: true, result: { tool: 'v__read', changed: true, size: 1 } });
    expect(sent).toContainEqual({ channel: EVENT_CHANNEL, payload: { type: 'setChanged', agent: 'default' } });
  });

  it("says when a remote instance's event stream is back, so the window reads again what it missed", async () => {
    const { ipc } = await setup();
    ipc.removeHandler(INVOKE_CHANNEL);
    const sent: string[] = [];
    let connected = true;
    const watchers = new Set<() => void>();
    const stop = registerControlIpc(ipc, app!.control, app!.events, (channel) => sent.push(channel), {
      connected: () => connected,
      onChange: (fn) => (watchers.add(fn), () => watchers.delete(fn)),
    });
    const change = (to: boolean) => {
      connected = to;
      for (const w of watchers) w();
    };
    change(true); // a note changed, the stream did not
    expect(sent).toEqual([]);
    change(false);
    change(false);
    expect(sent).toEqual([]);
    change(true);
    expect(sent).toEqual([REOPENED_CHANNEL]);
    stop();
    expect(watchers.size).toBe(0);
  });

  it('carries errors in the envelope as {code, message, data}', async () => {
    const { ipc } = await setup();
    expect(await ipc.invoke(INVOKE_CHANNEL, { method: 'promote', args: { agent: 'default', tool: 'nope' } })).toMatchObject({
      ok: false,
      error: { code: 'tool_not_found', message: expect.stringMatching(/^No tool named "nope"/), data: { tool: 'nope' } },
    });
    expect(await ipc.invoke(INVOKE_CHANNEL, { method: 'format_disk', args: {} })).toMatchObject({
      ok: false,
      error: { code: 'method_not_found', message: expect.stringMatching(/^No control method "format_disk"/) },
    });
    expect(await ipc.invoke(INVOKE_CHANNEL, { method: 'workingSet', args: { agent: 'ghost' } })).toMatchObject({
      ok: false,
      error: { code: 'agent_not_found' },
    });
  });

  it("checks the arguments against the method's schema before it runs", async () => {
    const { ipc } = await setup();
    expect(await ipc.invoke(INVOKE_CHANNEL, { method: 'search', args: { agent: 'default', query: { a: 1 } } })).toEqual({
      ok: false,
      error: {
        code: 'usage',
        message:
          'search: "query" must be text (got {"a":1}). search takes {agent: text, query?: text, limit?: a whole number, explain?: true or false}.',
        data: { method: 'search', path: 'query', reason: 'must be text', got: '{"a":1}' },
      },
    });
    expect(await ipc.invoke(INVOKE_CHANNEL, { method: 'promote', args: { agent: 'default' } })).toMatchObject({
      ok: false,
      error: {
        code: 'usage',
        message: expect.stringMatching(/^promote: "tool" is required\. promote takes \{agent: text, tool: text\}\.$/),
      },
    });
    expect(await ipc.invoke(INVOKE_CHANNEL, { method: 'status', args: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'usage', message: expect.stringMatching(/^status takes its arguments as a JSON object/) },
    });
  });

  it('unregisters on stop', async () => {
    const { ipc, stop, sent } = await setup();
    stop();
    expect(ipc.handlers.size).toBe(0);
    await app!.control.promote({ agent: 'default', tool: 'v__read' });
    expect(sent).toEqual([]);
  });
});
