// Demo mode is explicit: the window is told it is the demo; adding an upstream asks to
// leave it, and leaving keeps the demo running (and its state where it was) until a restart, instead of
// silently swapping the toolbox; editing an agent in the demo asks for no restart.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpControlClient } from '../../src-main/core/control/transport/httpClient.js';
import type { ControlApi } from '../../src-main/core/control/api.js';
import { exited, spawnMws, waitForOutput, type Running } from '../helpers/processes.js';
import { tempDir } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { readInstanceRecord } from '../../src-main/core/store/stateLock.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.kill();
});

/** `npm run demo` as a new user runs it: a config file with no upstream and no stateDir, state under $XDG_STATE_HOME. */
async function demo(): Promise<{ api: ControlApi; cfg: string; demoDir: string }> {
  const dir = tempDir();
  const cfg = join(dir, 'config.json');
  writeFileSync(cfg, JSON.stringify({ listen: { port: 0 } }));
  const xdg = join(dir, 'xdg');
  const s = spawnMws(['serve', '--demo', '--config', cfg], { XDG_STATE_HOME: xdg });
  running.push(s);
  await waitForOutput(s, /listening on/, 'mws serve --demo');
  const demoDir = join(xdg, 'mcp-working-set', 'demo');
  const rec = (await readInstanceRecord(demoDir))!;
  const api = httpControlClient(rec.url!, readFileSync(rec.tokenFile!, 'utf8').trim());
  return { api, cfg, demoDir };
}

describe('the demo', () => {
  it('says it is the demo, and where its state is', async () => {
    const { api, demoDir } = await demo();
    expect((await api.status({})).demo).toEqual({ stateDir: demoDir });
  });

  it('creates an agent without a false "takes effect after a restart"', async () => {
    const { api } = await demo();
    await api.createAgent({ id: 'bot' } as never);
    const st = await api.status({});
    expect(st.agents.map((a) => a.id)).toContain('bot');
    expect(st.restartNeeded).toBe(false);
  });

  it('asks before an upstream is added, and saves nothing without the answer', async () => {
    const { api, cfg } = await demo();
    const before = readFileSync(cfg, 'utf8');
    await expect(api.saveUpstream({ vendor: 'mine', upstream: { url: 'http://127.0.0.1:9/mcp' } })).rejects.toMatchObject({
      code: 'demo_mode',
      message: expect.stringMatching(/^This is the demo\. Adding an upstream leaves it/),
    });
    expect(readFileSync(cfg, 'utf8')).toBe(before);
  });

  it('once told to leave, saves the upstream for the next start and keeps serving the demo until then', async () => {
    const { api, cfg, demoDir } = await demo();
    await api.saveUpstream({ vendor: 'mine', upstream: { url: 'http://127.0.0.1:9/mcp' }, leaveDemo: true });
    expect((JSON.parse(readFileSync(cfg, 'utf8')) as { upstreams: object }).upstreams).toEqual({ mine: { url: 'http://127.0.0.1:9/mcp' } });
    const st = await api.status({});
    expect(st.toolboxSize).toBe(67); // still the demo's toolbox
    expect(st.upstreams.map((u) => u.vendor)).toEqual(['upstream']);
    expect(st.demo).toEqual({ stateDir: demoDir });
    expect(st.restartNeeded).toBe(true);
  });

  it("after mws init, npm run demo serves the demo (not the config's sample), and mws ui finds it", async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    const xdg = join(dir, 'xdg');
    const init = spawnMws(['init', '--config', cfg], { XDG_STATE_HOME: xdg });
    expect(await exited(init, 'mws init')).toBe(0);
    const written = JSON.parse(readFileSync(cfg, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(written.upstreams as object).length).toBeGreaterThan(0);
    writeFileSync(cfg, JSON.stringify({ ...written, listen: { port: 0 } }));
    const s = spawnMws(['serve', '--demo', '--config', cfg], { XDG_STATE_HOME: xdg });
    running.push(s);
    const banner = (await waitForOutput(s, /Upstreams: (.*)/, 'mws serve --demo'))[1];
    expect(banner).toBe('the built-in demo toolbox');
    const demoDir = join(xdg, 'mcp-working-set', 'demo');
    const rec = (await readInstanceRecord(demoDir))!;
    const api = httpControlClient(rec.url!, readFileSync(rec.tokenFile!, 'utf8').trim());
    await until(async () => (await api.status({})).toolboxSize === 67, "the demo's 67 tools listed");
    expect((await api.status({})).demo).toEqual({ stateDir: demoDir });
    // The file's sample is not a change waiting for a restart: an agent saved in the demo asks for none.
    await api.createAgent({ id: 'bot' } as never);
    expect((await api.status({})).restartNeeded).toBe(false);
    const ui = spawnMws(['ui', '--config', cfg], { XDG_STATE_HOME: xdg });
    expect(await exited(ui, 'mws ui')).toBe(0);
    expect(ui.stdout()).toMatch(new RegExp(`^${rec.url!.replace(/[.]/g, '\\.')}/ui\\?token=`));
  });
});
