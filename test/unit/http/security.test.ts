// The security rules as pure functions and small classes: who may reach the listener, per-agent
// tokens, window sessions, bounded approvals, masking and log-safe text.
import { describe, expect, it } from 'vitest';
import { refuseForeign } from '../../../src-main/core/http/guard.js';
import { agentIdOf } from '../../../src-main/core/http/mcpPaths.js';
import { agentGate, type GateRefusal } from '../../../src-main/core/http/agentGate.js';
import { newAgentToken } from '../../../src-main/core/agentToken.js';
import { exceedsDepth } from '../../../src-main/core/proxy/toolRouter.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { logSafe, maskUrl, maskUrlsIn, MAX_LOG_MESSAGE } from '../../../src-main/core/redact.js';
import { PendingApprovals, preview } from '../../../src-main/core/approvals/pending.js';
import { CSRF_HEADER, SESSION_COOKIE, UiSessions } from '../../../src-main/core/http/uiSessions.js';
import { MemoryLogger } from '../../../src-main/core/log.js';

const PORT = 4484;

describe('who may reach the listener', () => {
  const ok = (headers: Record<string, string>, method = 'POST', path?: string) => refuseForeign(method, headers, PORT, path) === undefined;

  it('accepts loopback Host with its own port, and no Origin (a CLI or an agent)', () => {
    expect(ok({ host: '127.0.0.1:4484' })).toBe(true);
    expect(ok({ host: 'localhost:4484' })).toBe(true);
    expect(ok({ host: '[::1]:4484' })).toBe(true);
  });

  it('refuses a foreign, malformed or other-port Host', () => {
    // Octets a URL parser refuses (256, 999, a leading zero read as bad octal) used to reach `new URL` and answer 500.
    for (const host of [
      'evil.example',
      '127.0.0.1@evil.example',
      '127.0.0.1:4484@evil.example',
      '127.0.0.1:9999',
      'localhost.evil.example:4484',
      '',
      '127.0.0.256',
      '127.0.0.999:4484',
      '127.300.0.1',
      '127.0.0.08:4484',
      '127.0.0.1.:4484',
    ]) {
      expect(ok({ host }), host).toBe(false);
    }
    expect(refuseForeign('POST', {}, PORT)?.status).toBe(403);
  });

  it('accepts only its own origin: scheme, host and port', () => {
    expect(ok({ host: '127.0.0.1:4484', origin: 'http://127.0.0.1:4484' })).toBe(true);
    expect(ok({ host: 'localhost:4484', origin: 'http://localhost:4484' })).toBe(true);
    for (const origin of [
      'http://127.0.0.1:3000',
      'http://localhost:5173',
      'https://127.0.0.1:4484',
      'http://evil.example',
      'null',
      'http://127.0.0.1',
    ]) {
      expect(ok({ host: '127.0.0.1:4484', origin }), origin).toBe(false);
    }
  });

  it('refuses what another site or port started, even a no-cors GET without Origin; a navigation may open the window', () => {
    expect(ok({ host: '127.0.0.1:4484', 'sec-fetch-site': 'same-site' }, 'GET')).toBe(false);
    expect(ok({ host: '127.0.0.1:4484', 'sec-fetch-site': 'cross-site' })).toBe(false);
    expect(ok({ host: '127.0.0.1:4484', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(ok({ host: '127.0.0.1:4484', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, 'GET', '/ui/')).toBe(true);
    expect(
      ok(
        { host: '127.0.0.1:4484', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
        'GET',
        '/ui',
      ),
    ).toBe(true);
    expect(ok({ host: '127.0.0.1:4484', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, 'POST')).toBe(false);
  });

  it('lets another site open only the window, and only at the top level: never in a frame, never another path', () => {
    const nav = { host: '127.0.0.1:4484', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    for (const dest of ['iframe', 'frame', 'embed', 'object', 'fencedframe']) {
      expect(ok({ ...nav, 'sec-fetch-dest': dest }, 'GET', '/ui/'), dest).toBe(false);
      // Not even from the window itself.
      expect(
        ok(
          { host: '127.0.0.1:4484', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': dest },
          'GET',
          '/ui/',
        ),
        `same-origin ${dest}`,
      ).toBe(false);
    }
    expect(refuseForeign('GET', { ...nav, 'sec-fetch-dest': 'iframe' }, PORT, '/ui/')?.message).toMatch(/inside a frame/);
    for (const path of ['/mcp', '/control/status', '/control/events', undefined]) expect(ok(nav, 'GET', path), String(path)).toBe(false);
    for (const path of ['/', '/ui', '/ui/', '/ui/assets/index.js'])
      expect(ok({ ...nav, 'sec-fetch-dest': 'document' }, 'GET', path), path).toBe(true);
  });

  it('reads the agent from the path without throwing on malformed escapes', () => {
    expect(agentIdOf('/mcp')).toBe('default');
    expect(agentIdOf('/mcp/ci-bot')).toBe('ci-bot');
    expect(agentIdOf('/mcp/ci-bot/mcp')).toBe('ci-bot');
    expect(agentIdOf('/mcp/ci-bot/mcp/')).toBe('ci-bot');
    expect(agentIdOf('/mcp/ci-bot/mcp?x=1')).toBe('ci-bot');
    expect(agentIdOf('/mcp/ci-bot/other')).toBeUndefined();
    expect(agentIdOf('/mcp/ci-bot/mcp/mcp')).toBeUndefined();
    expect(agentIdOf('/mcp/%/mcp')).toBeNull();
    expect(agentIdOf('/mcp/%')).toBeNull();
    expect(agentIdOf('/mcp/%E0%A4%A')).toBeNull();
    expect(agentIdOf('/control/status')).toBeUndefined();
  });
});

describe('per-agent access', () => {
  const config = validateConfig(
    {
      agents: [
        { id: 'ro', approvals: 'read-only' },
        { id: 'bot', token: 'a-secret-token-1234' },
      ],
    },
    '/tmp/x',
  );

  it('with no tokens every agent is open (the single-user default)', () => {
    expect(agentGate(config, 'default', undefined)).toBeUndefined();
    expect(agentGate(config, 'ro', undefined)).toBeUndefined();
  });

  it('an agent with a token answers 401 without it, and accepts it', () => {
    expect((agentGate(config, 'bot', undefined) as GateRefusal)?.status).toBe(401);
    expect((agentGate(config, 'bot', 'Bearer wrong-token-123456') as GateRefusal)?.status).toBe(401);
    expect(agentGate(config, 'bot', 'Bearer a-secret-token-1234')).toBeUndefined();
  });

  it('defaultAgent: false closes the default endpoint, and needs another agent', () => {
    const off = validateConfig({ defaultAgent: false, agents: [{ id: 'bot', token: 'a-secret-token-1234' }] }, '/tmp/x');
    expect((agentGate(off, 'default', undefined) as GateRefusal)?.status).toBe(404);
    expect(() => validateConfig({ defaultAgent: false }, '/tmp/x')).toThrow(
      /"defaultAgent" is false, so at least one other agent is needed/,
    );
  });

  it('generated tokens pass validation; short or spaced ones are refused with the command to make one', () => {
    expect(validateConfig({ agents: [{ id: 'a', token: newAgentToken() }] }, '/tmp/x').agents[1]!.token).toMatch(/^mws_/);
    expect(() => validateConfig({ agents: [{ id: 'a', token: 'short' }] }, '/tmp/x')).toThrow(/mws agent token/);
    expect(() => validateConfig({ agents: [{ id: 'a', token: 'has a space in it 123' }] }, '/tmp/x')).toThrow(/agents\[0\]\.token/);
  });
});

describe('window sessions', () => {
  const req = (cookie: string | undefined, csrf?: string, url = 'http://127.0.0.1:4484/control/status') =>
    new Request(url, {
      method: 'POST',
      headers: { ...(cookie ? { cookie: `${SESSION_COOKIE}_4484=${cookie}` } : {}), ...(csrf ? { [CSRF_HEADER]: csrf } : {}) },
    });

  it('needs the cookie and the CSRF header together', () => {
    const t = { now: 0 };
    const ui = new UiSessions(() => t.now);
    const id = ui.exchange(ui.link())!.id;
    const session = ui.session(req(id))!;
    expect(ui.authorized(req(id))).toBe(false);
    expect(ui.authorized(req(id, 'wrong'))).toBe(false);
    expect(ui.authorized(req(undefined, session.csrf))).toBe(false);
    expect(ui.authorized(req(id, session.csrf))).toBe(true);
    expect(ui.authorized(req(id, undefined, `http://127.0.0.1:4484/control/events?csrf=${session.csrf}`))).toBe(true);
  });

  it('tries every cookie of its name, so one tossed by a page on another port cannot hide the real one', () => {
    const ui = new UiSessions(() => 0);
    const id = ui.exchange(ui.link())!.id;
    const r = (cookie: string) => new Request('http://127.0.0.1:4484/ui/', { headers: { cookie } });
    expect(ui.session(r(`${SESSION_COOKIE}_4484=tossed; ${SESSION_COOKIE}_4484=${id}`))).toBeDefined();
    expect(ui.session(r(`${SESSION_COOKIE}_4484=; a=b; ${SESSION_COOKIE}_4484=${id}`))).toBeDefined();
    // The name carries the port: another instance's cookie (or a bare mws_session) is not ours.
    expect(ui.session(r(`${SESSION_COOKIE}_4485=${id}`))).toBeUndefined();
    expect(ui.session(r(`${SESSION_COOKIE}=${id}`))).toBeUndefined();
    expect(ui.session(r(`${SESSION_COOKIE}_4484=tossed`))).toBeUndefined();
  });

  it("an operator's window session carries their role and ends when their token does", () => {
    const t = { now: 0 };
    const ui = new UiSessions(() => t.now);
    const opened = ui.open({ actor: { name: 'carol', role: 'viewer' }, until: 5 * 60_000 });
    expect(ui.caller(req(opened.id, opened.csrf))).toEqual({ actor: { name: 'carol', role: 'viewer' } });
    // A one-time link's session is the admin's: no actor.
    const admin = ui.exchange(ui.link())!;
    expect(ui.caller(req(admin.id, admin.csrf))).toEqual({});
    t.now = 5 * 60_000;
    expect(ui.caller(req(opened.id, opened.csrf))).toBeUndefined();
    expect(ui.caller(req(admin.id, admin.csrf))).toEqual({});
  });

  it('a link is spent once', () => {
    const ui = new UiSessions(() => 0);
    const link = ui.link();
    expect(ui.exchange(link)).toBeDefined();
    expect(ui.exchange(link)).toBeUndefined();
  });

  it('expires after the idle limit and after the absolute limit, both configurable', () => {
    const t = { now: 0 };
    const ui = new UiSessions(
      () => t.now,
      () => ({ idleMinutes: 10, maxHours: 1 }),
    );
    const id = ui.exchange(ui.link())!.id;
    t.now = 9 * 60_000;
    expect(ui.session(req(id))).toBeDefined();
    // Kept alive by use, it still ends at the absolute limit.
    for (let m = 18; m <= 60; m += 9) {
      t.now = m * 60_000;
      expect(ui.session(req(id)), `minute ${m}`).toBeDefined();
    }
    t.now = 61 * 60_000;
    expect(ui.session(req(id))).toBeUndefined();

    const idle = ui.exchange(ui.link())!.id;
    t.now += 11 * 60_000;
    expect(ui.session(req(idle))).toBeUndefined();
  });

  it('revokeAll ends every session and every unspent link', () => {
    const ui = new UiSessions(() => 0);
    const a = ui.exchange(ui.link())!.id;
    const b = ui.exchange(ui.link())!.id;
    const unspent = ui.link();
    expect(ui.revokeAll()).toBe(2);
    expect(ui.session(req(a))).toBeUndefined();
    expect(ui.session(req(b))).toBeUndefined();
    expect(ui.exchange(unspent)).toBeUndefined();
  });
});

describe('calls waiting for approval are bounded', () => {
  it('caps how many of one agent wait, with a sentence, and frees the slot when one ends', async () => {
    const p = new PendingApprovals(
      60_000,
      () => 0,
      () => {},
      { perAgent: 2, agentBytes: 1 << 20 },
    );
    const a = p.wait('bot', 'x', {}, false);
    const b = p.wait('bot', 'x', {}, false);
    const c = await p.wait('bot', 'x', {}, false);
    expect(c).toEqual({ full: expect.stringMatching(/2 calls of this agent are already waiting/) });
    // Another agent is not blocked by this one's count.
    const other = p.wait('ro', 'x', {}, false);
    expect(p.decide('bot', 'x', 'deny')).toBe(2);
    expect(await a).toBe('deny');
    expect(await b).toBe('deny');
    expect(p.wait('bot', 'x', {}, false)).toBeInstanceOf(Promise);
    p.close();
    expect(await other).toBe('deny');
  });

  it("caps each agent's argument bytes held, not one pool for all: one agent cannot starve another", async () => {
    const p = new PendingApprovals(
      60_000,
      () => 0,
      () => {},
      { perAgent: 100, agentBytes: 3_000_000 },
    );
    const big = { content: 'x'.repeat(1_000_000) };
    const waits = [p.wait('a', 't', big, false), p.wait('a', 't', big, false)];
    expect(p.heldBytes).toBeGreaterThan(2_000_000);
    const refused = await p.wait('a', 't', { content: 'y'.repeat(1_500_000) }, false);
    expect(refused).toEqual({ full: expect.stringMatching(/this agent's calls .* send smaller arguments/) });
    // Another agent's call of the same size still waits: its budget is its own.
    const other = p.wait('b', 't', { content: 'y'.repeat(1_500_000) }, false);
    expect(p.list('b')).toHaveLength(1);
    expect(p.heldBytesOf('b')).toBeGreaterThan(1_500_000);
    p.close();
    await Promise.all([...waits, other]);
    expect(p.heldBytes).toBe(0);
    expect(p.heldBytesOf('a')).toBe(0);
    expect(p.list()).toEqual([]);
  });

  it('lists a truncated preview with the full size, never the full arguments', () => {
    const p = new PendingApprovals(60_000, () => 0);
    void p.wait('a', 't', { content: 'x'.repeat(100_000), list: Array.from({ length: 1000 }, (_, i) => i) }, false);
    const [call] = p.list();
    expect(JSON.stringify(call!.arguments).length).toBeLessThan(2_000);
    expect(call!.argumentBytes).toBeGreaterThan(100_000);
    expect(String(call!.arguments.content)).toMatch(/… \(99488 more characters\)$/);
    p.close();
    expect(preview({ a: { b: { c: { d: { e: { f: 1 } } } } } })).toEqual({ a: { b: { c: { d: { e: '{…}' } } } } });
  });
});

describe('no secrets shown, no forged log lines', () => {
  it('masks user:pass@ and credential query values in URLs and in text that quotes them', () => {
    expect(maskUrl('https://bob:hunter2@mcp.example.com/mcp?api_key=sk-123&x=1')).toBe(
      'https://***:***@mcp.example.com/mcp?api_key=***&x=1',
    );
    expect(maskUrlsIn('fetch failed for https://mcp.example.com/mcp?token=abc: ECONNREFUSED')).toBe(
      'fetch failed for https://mcp.example.com/mcp?token=***: ECONNREFUSED',
    );
    expect(maskUrlsIn('see http://127.0.0.1:4484/mcp')).toBe('see http://127.0.0.1:4484/mcp');
  });

  it('refuses user:pass@ in an upstream URL with a sentence saying to use a header, without echoing the password', () => {
    let message = '';
    try {
      validateConfig({ upstreams: { mail: { url: 'https://bob:hunter2@mcp.example.com/mcp' } } }, '/tmp/x');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /"upstreams\.mail\.url" must not carry a user name or password \(user:pass@\); put the credential in "headers"/,
    );
    expect(message).not.toContain('hunter2');
  });

  it('escapes newlines and ANSI escapes in log lines and cuts long ones', () => {
    const log = new MemoryLogger();
    log.warn('No tool named "x\nmws: warning: forged line\u001b[31m"');
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).not.toMatch(/[\n\u001b]/);
    expect(log.lines[0]).toContain('\\nmws: warning: forged line\\x1b[31m');
    expect(logSafe('y'.repeat(10_000)).length).toBeLessThan(MAX_LOG_MESSAGE + 50);
  });

  it('finds arguments nested too deep without recursing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(exceedsDepth({ a: deep }, 64)).toBe(true);
    expect(exceedsDepth({ a: { b: [1, { c: 2 }] } }, 64)).toBe(false);
  });
});
