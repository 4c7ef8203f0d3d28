// The ControlApi over the IPC adapter, with a stand-in for ipcMain typed from electron.d.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { registerControlIpc, INVOKE_CHANNEL, EVENT_CHANNEL, type IpcMainLike } from '../../../src-main/desktop/ipc.js';
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
  app = createApp({ config, clock: new ManualClock(), log: new MemoryLogger(), connect: () => new TwinUpstream('v', [twinTool('read'), twinTool('write', false)]) });
  await app.start({ listen: false, schedule: false });
  const ipc = new StandInIpcMain();
  const sent: Array<{ channel: string; payload: unknown }> = [];
  const stop = registerControlIpc(ipc, app.control, app.events, (channel, payload) => sent.push({ channel, payload }));
  return { ipc, sent, stop };
}

describe('the ControlApi over IPC', () => {
  it('answers {method, args} on one channel and pushes core events on the other', async () => {
    const { ipc, sent } = await setup();
    const status = (await ipc.invoke(INVOKE_CHANNEL, { method: 'status', args: {} })) as { toolboxSize: number };
    expect(status.toolboxSize).toBe(2);
    const r = await ipc.invoke(INVOKE_CHANNEL, { method: 'promote', args: { agent: 'default', tool: 'v__read' } });
    expect(r).toEqual({ tool: 'v__read', changed: true, size: 1 });
    expect(sent).toContainEqual({ channel: EVENT_CHANNEL, payload: { type: 'setChanged', agent: 'default' } });
  });

  it('carries error codes as "code: sentence"', async () => {
    const { ipc } = await setup();
    await expect(ipc.invoke(INVOKE_CHANNEL, { method: 'promote', args: { agent: 'default', tool: 'nope' } })).rejects.toThrow(/^tool_not_found: No tool named "nope"/);
    await expect(ipc.invoke(INVOKE_CHANNEL, { method: 'format_disk', args: {} })).rejects.toThrow(/^usage: No control method "format_disk"/);
    await expect(ipc.invoke(INVOKE_CHANNEL, { method: 'workingSet', args: { agent: 'ghost' } })).rejects.toThrow(/^agent_not_found:/);
  });

  it('unregisters on stop', async () => {
    const { ipc, stop, sent } = await setup();
    stop();
    expect(ipc.handlers.size).toBe(0);
    await app!.control.promote({ agent: 'default', tool: 'v__read' });
    expect(sent).toEqual([]);
  });
});
