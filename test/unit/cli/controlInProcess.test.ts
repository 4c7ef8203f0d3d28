// Every caller of the ControlApi goes through the same argument checks: the CLI with no instance
// running (which used to call the core's methods directly, so `limit: 0` listed everything and an
// object query died in `trim`), the secrets commands that work on the files, and the app's own
// `control` the tray uses. A refusal is the sentence /control answers, thrown as a `usage` MwsError.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { openControl, type Control } from '../../../src-main/cli/instance.js';
import { dispatch } from '../../../src-main/core/control/envelope.js';
import { MwsError } from '../../../src-main/core/errors.js';
import { main } from '../../../src-main/cli/main.js';

let control: Control | undefined;
afterEach(async () => {
  await control?.close();
  control = undefined;
});

async function headless(): Promise<Control> {
  const dir = mkdtempSync(join(tmpdir(), 'mws-inproc-'));
  control = await openControl(validateConfig({ stateDir: dir }, dir), 'test');
  expect(control.source).toBe('config');
  return control;
}

/** What a call throws in process, as the {code, message, data} /control would answer. */
async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string; data: Record<string, unknown> }> {
  const err: unknown = await call.then(
    () => new Error('the call was accepted'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MwsError);
  const e = err as MwsError;
  return { code: e.code, message: e.message, data: e.data };
}

describe("the headless CLI's ControlApi (cli/instance.ts, no instance running)", () => {
  it('refuses bad arguments before the method runs, with the sentence /control answers', async () => {
    const { api } = await headless();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['history', { agent: 'default', limit: 0 }],
      ['search', { agent: 'default', query: { text: 'read' } }],
      ['activity', { limit: 5000 }],
      ['promote', { agent: 'default', tool: 'x', force: true }],
      ['sweepPreview', { now: 'next week' }],
      ['status', []] as unknown as [string, Record<string, unknown>],
    ];
    for (const [method, args] of cases) {
      const thrown = await refusal((api as unknown as Record<string, (a: unknown) => Promise<unknown>>)[method]!(args));
      const wire = await dispatch(api, method, args);
      expect(wire.ok, method).toBe(false);
      expect(thrown, method).toEqual(!wire.ok && wire.error);
      expect(thrown.code, method).toBe('usage');
    }
    expect((await refusal(api.history({ agent: 'default', limit: 0 }))).message).toBe(
      'history: "limit" must be 1 or more (got 0). history takes {agent: text, limit?: a whole number}.',
    );
    expect((await refusal(api.sweepPreview({ now: 'next week' }))).message).toMatch(
      /^sweepPreview: "now" must be an ISO time such as 2026-12-24T09:00:00Z \(got "next week"\)\./,
    );
  });

  it('still runs good calls and keeps the checks that need the state', async () => {
    const { api } = await headless();
    expect((await api.status({})).agents.map((a) => a.id)).toEqual(['default']);
    expect(await api.history({ agent: 'default', limit: 5 })).toEqual([]);
    await expect(api.workingSet({ agent: 'ghost' })).rejects.toMatchObject({ code: 'agent_not_found' });
    await expect(api.upstreamLog({ vendor: '__proto__' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it("a copy of the ControlApi (a wrapper such as the desktop's) is still checked by dispatch", async () => {
    const { api } = await headless();
    let ran = 0;
    const wrapped = { ...api, history: async () => ((ran += 1), []) };
    expect(await dispatch(wrapped, 'history', { agent: 'default', limit: 0 })).toMatchObject({
      ok: false,
      error: { code: 'usage', data: { path: 'limit' } },
    });
    expect(ran).toBe(0);
    expect(await dispatch(wrapped, 'history', { agent: 'default' })).toEqual({ ok: true, result: [] });
    expect(ran).toBe(1);
  });
});

describe('mws upstream set with no instance running', () => {
  it('refuses a value the schema refuses, before the secret store or config.json is touched, and never echoes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-inproc-'));
    const cfg = join(dir, 'config.json');
    const raw = JSON.stringify({ stateDir: join(dir, 'state'), upstreams: { v: { command: 'node', args: ['server.js'] } } });
    writeFileSync(cfg, raw);
    let out = '';
    let err = '';
    const io = { out: (s: string) => void (out += `${s}\n`), err: (s: string) => void (err += `${s}\n`) };
    // 70 KiB on the command line: the stdin path is bounded by the CLI, this one only by the contract.
    const value = `v${'q'.repeat(70 * 1024)}`;
    const code = await main(['upstream', 'set', 'v', 'LOG_LEVEL', value, '--config', cfg], io);
    expect(code, out + err).toBe(2);
    expect(err).toMatch(/setUpstreamValue: "value" must be at most 65536 characters\./);
    expect(err).not.toContain('qqqq');
    expect(readFileSync(cfg, 'utf8')).toBe(raw);
    // A good value goes through the same door and is saved as before.
    expect(await main(['upstream', 'set', 'v', 'LOG_LEVEL', 'debug', '--config', cfg], io), err).toBe(0);
    expect(JSON.parse(readFileSync(cfg, 'utf8')).upstreams.v.env.LOG_LEVEL).toMatch(/^\$\{secret:/);
  });
});
