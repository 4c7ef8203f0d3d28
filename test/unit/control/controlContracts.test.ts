// The ControlApi's contract: every method has an argument schema, a call with bad arguments is
// answered 400 with a sentence (path, what was wrong, what the method takes) before the method runs,
// and every answer is the one envelope with the HTTP status its error code calls for.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { createApp, type App } from '../../../src-main/core/app.js';
import { ManualClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import {
  CONTROL_CONTRACT,
  CONTROL_METHODS,
  type ControlApi,
  type ControlArgs,
  type ControlResult,
} from '../../../src-main/core/control/contract.js';
import type { HistoryEntry } from '../../../src-main/core/workingset/types.js';
import { controlHandler } from '../../../src-main/core/control/transport/http.js';
import { TwinUpstream, twinTool } from '../../helpers/twins.js';

let app: App | undefined;
afterEach(async () => app?.stop());

const TOKEN = 'test-control-token';

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'mws-contract-'));
  const cfgPath = join(dir, 'config.json');
  const raw = { stateDir: dir, upstreams: { v: { url: 'http://127.0.0.1:1/mcp' } } };
  writeFileSync(cfgPath, JSON.stringify(raw));
  app = createApp({
    config: validateConfig(raw, dir),
    clock: new ManualClock(),
    log: new MemoryLogger(),
    configFile: { path: cfgPath, raw },
    connect: () => new TwinUpstream('v', [twinTool('read'), twinTool('write', false)]),
  });
  await app.start({ listen: false, schedule: false });
  return app;
}

/** One POST /control/<method> through the route the listener serves (Host/Origin are checked before it). */
async function post(
  api: ControlApi,
  method: string,
  body: unknown,
): Promise<{
  status: number;
  body: { ok: boolean; result?: unknown; error?: { code: string; message: string; data: Record<string, unknown> } };
}> {
  const url = new URL(`http://127.0.0.1/control/${method}`);
  const res = await controlHandler(
    api,
    () => TOKEN,
  )(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as never };
}

describe('ControlApi argument schemas', () => {
  it('exist for every method the core serves, and for no other (the contract is the one list)', async () => {
    const control = (await setup()).control;
    expect(Object.keys(control).sort()).toEqual([...CONTROL_METHODS].sort());
    expect(Object.keys(CONTROL_CONTRACT)).toEqual([...CONTROL_METHODS]);
    // The run functions behind app.control: one per contract entry, none the contract does not declare.
    const [handlers] = Object.getOwnPropertySymbols(control).map((s) => (control as unknown as Record<symbol, object>)[s]!);
    expect(Object.keys(handlers!).sort()).toEqual([...CONTROL_METHODS].sort());
  });

  it('give the interface its types: one entry in contract.ts is the method (checked by the typecheck)', () => {
    expectTypeOf<ControlArgs<'history'>>().toEqualTypeOf<{ agent: string; limit?: number | undefined }>();
    expectTypeOf<ControlResult<'history'>>().toEqualTypeOf<HistoryEntry[]>();
    expectTypeOf<ControlApi['setProxyPaused']>().toEqualTypeOf<(args: { paused: boolean }) => Promise<{ paused: boolean }>>();
    expect(CONTROL_METHODS).toContain('history');
  });

  it('accept every argument a method takes, so good calls run as before', async () => {
    const a = await setup();
    expect((await post(a.control, 'search', { agent: 'default', query: 'read', limit: 3, explain: true })).status).toBe(200);
    expect((await post(a.control, 'cycle', { dryRun: true, agents: ['default'] })).status).toBe(200);
    expect((await post(a.control, 'approve', { agent: 'default', tool: 'v__read', deny: true, id: 'x' })).status).toBe(200);
    expect((await post(a.control, 'updateSettings', { promote: { minSessions: 2 } })).status).toBe(200);
  });
});

describe('/control answers with the envelope and a proper status', () => {
  it('400 with a sentence for bad arguments, before the method runs (an object query used to answer 500 "trim is not a function")', async () => {
    const a = await setup();
    const r = await post(a.control, 'search', { agent: 'default', query: { text: 'read' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      ok: false,
      error: {
        code: 'usage',
        message:
          'search: "query" must be text (got {"text":"read"}). search takes {agent: text, query?: text, limit?: a whole number, explain?: true or false}.',
        data: { method: 'search', path: 'query', reason: 'must be text', got: '{"text":"read"}' },
      },
    });
    expect(await post(a.control, 'promote', { agent: 'default', tool: 'v__read', force: true })).toMatchObject({
      status: 400,
      body: { error: { message: 'promote: "force" is not an argument of promote. promote takes {agent: text, tool: text}.' } },
    });
    expect(await post(a.control, 'history', { agent: 'default', limit: 0 })).toMatchObject({
      status: 400,
      body: { error: { data: { path: 'limit', reason: 'must be 1 or more' } } },
    });
    expect(await post(a.control, 'saveUpstream', { vendor: 'x', upstream: { url: 'http://127.0.0.1:1/mcp', header: {} } })).toMatchObject({
      status: 400,
      body: { error: { data: { path: 'upstream.header', reason: 'is not an argument here' } } },
    });
    expect(await post(a.control, 'status', [])).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringMatching(/^status takes its arguments as a JSON object: no arguments \(\{\}\)/) } },
    });
    expect((await post(a.control, 'status', '{nope')).status).toBe(400);
    expect(await post(a.control, 'search', { agent: 'default', limit: 1e308 })).toMatchObject({
      status: 400,
      body: { error: { data: { path: 'limit', reason: 'must be a whole number', got: '1e+308' } } },
    });
    expect(await post(a.control, 'status', JSON.parse('{"__proto__": {"polluted": 1}}'))).toMatchObject({
      status: 400,
      body: { error: { data: { path: '__proto__', reason: 'is not an argument of status' } } },
    });
    expect(await post(a.control, 'constructor', {})).toMatchObject({ status: 404, body: { error: { code: 'method_not_found' } } });
  });

  it('400 for a value the config refuses, naming its field', async () => {
    const a = await setup();
    expect(await post(a.control, 'updateAgent', { id: 'default', cap: 0 })).toMatchObject({
      status: 400,
      body: { error: { code: 'config_invalid', data: { path: 'agents[0].cap', got: '0' } } },
    });
  });

  it('404 for an unknown method, agent, tool or upstream', async () => {
    const a = await setup();
    expect(await post(a.control, 'format_disk', {})).toMatchObject({
      status: 404,
      body: {
        ok: false,
        error: { code: 'method_not_found', message: expect.stringMatching(/^No control method "format_disk"\. Known: status, /) },
      },
    });
    expect(await post(a.control, 'workingSet', { agent: 'ghost' })).toMatchObject({
      status: 404,
      body: { error: { code: 'agent_not_found' } },
    });
    expect(await post(a.control, 'promote', { agent: 'default', tool: 'nope' })).toMatchObject({
      status: 404,
      body: { error: { code: 'tool_not_found' } },
    });
    expect(await post(a.control, 'removeUpstream', { vendor: 'ghost' })).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
  });

  it('409 when the state forbids the call', async () => {
    const a = await setup();
    expect(await post(a.control, 'createAgent', { id: 'default' })).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict', message: 'An agent "default" already exists; pick another id.' } },
    });
    expect(await post(a.control, 'deleteAgent', { id: 'default' })).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(await post(a.control, 'approve', { agent: 'default', tool: 'v__read', once: true })).toMatchObject({
      status: 409,
      body: { error: { code: 'conflict' } },
    });
  });

  it('500 only for a bug, said as one', async () => {
    const a = await setup();
    const broken = {
      ...a.control,
      status: async () => {
        throw new TypeError('x.trim is not a function');
      },
    } as ControlApi;
    expect(await post(broken, 'status', {})).toEqual({
      status: 500,
      body: {
        ok: false,
        error: {
          code: 'internal',
          message: 'status failed: x.trim is not a function. This is a bug in mws; the log has the details.',
          data: { method: 'status' },
        },
      },
    });
  });
});

describe('search', () => {
  it('answers its hits as data beside the text a model reads', async () => {
    const a = await setup();
    await a.control.promote({ agent: 'default', tool: 'v__read' });
    const r = await a.control.search({ agent: 'default', query: 'read tool' });
    expect(r.kind).toBe('ranked');
    expect(r.hits[0]).toMatchObject({ name: 'v__read', promoted: true, readOnlyHint: true, destructiveHint: false });
    expect(r.hits.map((h) => h.name)).toEqual((JSON.parse(r.text) as { results: Array<{ name: string }> }).results.map((h) => h.name));
    expect((await a.control.search({ agent: 'default', query: 'v__write' })).hits).toMatchObject([
      { name: 'v__write', promoted: false, readOnlyHint: false, description: 'write tool' },
    ]);
    const none = await a.control.search({ agent: 'default', query: 'zzqx' });
    expect(none).toMatchObject({ kind: 'none', hits: [], message: expect.stringMatching(/^No tool matches "zzqx"\./) });
  });
});
