// OAuth 2.1 to an upstream, end to end against a real authorization server (the v1 SDK's
// mcpAuthRouter over an in-memory provider): sign in through the loopback callback → call → the
// access token expires (injected clock) → refreshed → the grant is revoked → "needs sign-in" → sign
// in again. And the callback refuses a wrong state, a replayed code and a cross-site form post.
import { statusWord } from '../../src-main/shared/statusWords.js';
import { afterEach, describe, expect, it } from 'vitest';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { validateConfig } from '../../src-main/core/config/validate.js';
import { createApp, type App } from '../../src-main/core/app.js';
import { ManualClock } from '../../src-main/core/clock.js';
import { MemoryLogger } from '../../src-main/core/log.js';
import { startOAuthFixture, ACCESS_TOKEN_SECONDS, type OAuthFixture } from '../fixtures/oauth/server.js';
import { startAppFromFile, tempDir, TEST_LIST_MS } from '../helpers/app.js';
import { until } from '../helpers/wait.js';
import { authorizationRedirect, openAsBrowser, signInAsBrowser } from '../helpers/oauth.js';
import { rawRequest } from '../helpers/rawHttp.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s().catch(() => {});
});

type Setup = { app: App; url: string; fixture: OAuthFixture; clock: ManualClock; log: MemoryLogger; stateDir: string };

async function setup(): Promise<Setup> {
  const clock = new ManualClock(Date.now());
  const fixture = await startOAuthFixture(() => clock.now());
  stops.push(() => fixture.close());
  const stateDir = tempDir();
  const config = validateConfig(
    {
      stateDir,
      listen: { host: '127.0.0.1', port: 0 },
      upstreams: { secure: { url: fixture.url } },
      agents: [{ id: 'default', approvals: 'allow', pins: ['secure__whoami'] }],
      timeouts: { listMs: TEST_LIST_MS },
    },
    stateDir,
  );
  const log = new MemoryLogger();
  const app = createApp({ config, clock, log });
  const { url } = await app.start();
  stops.push(() => app.stop());
  return { app, url, fixture, clock, log, stateDir };
}

const statusOf = (app: App) => app.catalog.statuses().find((s) => s.vendor === 'secure');

async function mcpClient(url: string): Promise<Client> {
  const c = new Client({ name: 'agent', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  stops.push(() => c.close());
  return c;
}

const textOf = (r: unknown) => ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');

async function signIn(s: Setup): Promise<void> {
  const r = await s.app.control.signIn({ vendor: 'secure' });
  expect(r.status).toBe('waiting');
  const landed = await signInAsBrowser(r.url!);
  expect(landed.status, landed.body).toBe(200);
  expect(landed.body).toMatch(/Signed in to secure/);
  await until(() => statusOf(s.app)?.status === 'up' && statusOf(s.app)!.toolCount > 0, 'the upstream to be up and listed after sign-in');
}

describe('an OAuth upstream', () => {
  it('needs sign-in, signs in through /oauth/callback, refreshes on expiry, and asks again when the grant is revoked', async () => {
    const s = await setup();
    // The first start met a 401: a sign-in waits, and the status says so (not "down").
    await until(() => statusOf(s.app)?.status === 'needs-sign-in', 'status needs-sign-in');
    expect(statusOf(s.app)?.auth).toEqual({ signedIn: false, waiting: true });
    const c = await mcpClient(s.url);
    const before = await c
      .callTool({ name: 'secure__whoami', arguments: {} })
      .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    expect(textOf(before)).toMatch(/needs you to sign in.*mws login secure/);

    // The authorization request used PKCE S256, our loopback callback and the resource indicator.
    const pending = await s.app.control.signIn({ vendor: 'secure' });
    const auth = new URL(pending.url!);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('redirect_uri')).toBe(`${s.url}/oauth/callback`);
    expect(auth.searchParams.get('resource')).toBe(s.fixture.url);
    await signIn(s);
    expect(s.fixture.counts).toMatchObject({ registrations: 1, codes: 1 });
    expect(statusOf(s.app)?.auth).toMatchObject({ signedIn: true, waiting: false });
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');

    // Tokens are kept 0600 in the state folder, and never in status answers or the log.
    const file = join(s.stateDir, 'oauth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      upstreams: { secure: { tokens: { access_token: string; refresh_token: string } } };
    };
    const { access_token, refresh_token } = saved.upstreams.secure.tokens;
    const shown =
      JSON.stringify(await s.app.control.status({})) + JSON.stringify(await s.app.control.upstreams({})) + s.log.lines.join('\n');
    expect(shown).not.toContain(access_token);
    expect(shown).not.toContain(refresh_token);

    // The access token nears its expiry: it is refreshed before the call, not after a 401.
    s.clock.advance((ACCESS_TOKEN_SECONDS - 30) * 1000);
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');
    expect(s.fixture.counts.refreshes).toBe(1);

    // The server forgets access tokens: the 401 makes the SDK refresh, and the call goes through.
    s.fixture.dropAccessTokens();
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');
    expect(s.fixture.counts.refreshes).toBe(2);

    // The grant is revoked (refresh token too): needs sign-in, and a call says how.
    s.fixture.revokeEverything();
    const refused = await c
      .callTool({ name: 'secure__whoami', arguments: {} })
      .catch((e: Error) => ({ content: [{ type: 'text', text: e.message }] }));
    expect(textOf(refused)).toMatch(/needs you to sign in/);
    expect(statusOf(s.app)?.status).toBe('needs-sign-in');
    // Its tools stay listed from the last-good catalog meanwhile.
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('secure__whoami');

    // Sign in again: the same registration, a new code.
    await signIn(s);
    expect(s.fixture.counts).toMatchObject({ registrations: 1, codes: 2 });
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');

    // Sign out revokes at the server (RFC 7009) and forgets the tokens.
    const out = await s.app.control.signOut({ vendor: 'secure' });
    expect(out).toEqual({ vendor: 'secure', revoked: true });
    expect(statusOf(s.app)?.status).toBe('needs-sign-in');
    const after = JSON.parse(readFileSync(file, 'utf8')) as { upstreams: { secure: { tokens?: unknown } } };
    expect(after.upstreams.secure.tokens).toBeUndefined();
  });

  it('recovers when the authorization server forgets its client registration (restart, revoked client)', async () => {
    const s = await setup();
    await until(() => statusOf(s.app)?.status === 'needs-sign-in', 'status needs-sign-in');
    await signIn(s);
    const c = await mcpClient(s.url);
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');

    // The server restarts and forgets everything: a call finds the grant gone, and Sign in gives a
    // link with a new registration (the old client_id would end on the server's invalid_client page).
    s.fixture.forgetClients();
    await c.callTool({ name: 'secure__whoami', arguments: {} }).catch(() => undefined);
    await until(() => statusOf(s.app)?.status === 'needs-sign-in', 'needs sign-in after the server forgot us');
    // Said as a lost sign-in: the words, the status and the upstream's log.
    expect(statusWord(statusOf(s.app)!)).toBe('needs sign-in again');
    const log = await s.app.control.upstreamLog({ vendor: 'secure' });
    expect(log.auth).toEqual({ signedIn: false, lost: true });
    expect(log.lines.map((l) => l.text).join('\n')).toMatch(/no longer takes the sign-in .*sign in again/);
    await signIn(s);
    expect(s.fixture.counts.registrations).toBe(2);
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-2');

    // Signed out (tokens gone, nothing left to refresh with), then the server forgets the client:
    // signing in again registers again instead of reusing the dead client_id.
    await s.app.control.signOut({ vendor: 'secure' });
    s.fixture.forgetClients();
    const link = await s.app.control.signIn({ vendor: 'secure' });
    expect(new URL(link.url!).searchParams.get('client_id')).toBe('client-3');
    await signIn(s);
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-3');

    // A link waiting from before the server forgot the client is replaced too.
    await s.app.control.signOut({ vendor: 'secure' });
    const waiting = await s.app.control.signIn({ vendor: 'secure' });
    s.fixture.forgetClients();
    const fresh = await s.app.control.signIn({ vendor: 'secure' });
    expect(fresh.url).not.toBe(waiting.url);
    await signIn(s);
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toMatch(/^hello client-\d$/);
  });

  it('Reset sign-in forgets tokens and registration and starts a new sign-in', async () => {
    const s = await setup();
    await until(() => statusOf(s.app)?.status === 'needs-sign-in', 'status needs-sign-in');
    await signIn(s);
    const r = await s.app.control.resetSignIn({ vendor: 'secure' });
    expect(r.status).toBe('waiting');
    expect(statusOf(s.app)?.status).toBe('needs-sign-in');
    const saved = JSON.parse(readFileSync(join(s.stateDir, 'oauth.json'), 'utf8')) as {
      upstreams: { secure: { tokens?: unknown; client?: { info: { client_id: string } } } };
    };
    expect(saved.upstreams.secure.tokens).toBeUndefined();
    expect(saved.upstreams.secure.client?.info.client_id).toBe('client-2');
    expect(new URL(r.url!).searchParams.get('client_id')).toBe('client-2');
    await signIn(s);
    const c = await mcpClient(s.url);
    expect(textOf(await c.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-2');
  });

  it("forgets the sign-in of an upstream that is removed, and no other upstream's", async () => {
    const fixture = await startOAuthFixture(() => Date.now());
    stops.push(() => fixture.close());
    const a = await startAppFromFile({
      upstreams: { secure: { url: fixture.url }, keep: { url: fixture.url } },
      agents: [{ id: 'default', approvals: 'allow' }],
    });
    stops.push(() => a.stop());
    await signIn({ app: a.app } as Setup);
    const keep = await a.app.control.signIn({ vendor: 'keep' });
    expect((await signInAsBrowser(keep.url!)).status).toBe(200);
    const file = join(a.stateDir, 'oauth.json');
    const saved = () => (JSON.parse(readFileSync(file, 'utf8')) as { upstreams: Record<string, { tokens?: unknown }> }).upstreams;
    await until(() => saved().secure?.tokens !== undefined && saved().keep?.tokens !== undefined, 'both sign-ins saved');
    await a.app.control.removeUpstream({ vendor: 'secure' });
    await until(() => !('secure' in saved()), "the removed upstream's sign-in forgotten in oauth.json");
    expect(saved().keep?.tokens).toBeDefined();
  });

  it('refuses a callback with a wrong state, a replayed code and a cross-site form post', async () => {
    const s = await setup();
    await until(() => statusOf(s.app)?.status === 'needs-sign-in', 'status needs-sign-in');
    const { url } = await s.app.control.signIn({ vendor: 'secure' });
    const callback = await authorizationRedirect(url!);
    const cb = new URL(callback);

    // A state no sign-in is waiting for (a forged link): refused, and the real one still works.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state');
    const wrong = await openAsBrowser(forged.href);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatch(/not from a sign-in Working Set is waiting for/);

    // A cross-site form post of the real answer: refused before any route (Origin), and by the route.
    const form = {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    const post = await rawRequest(
      s.url,
      'POST',
      '/oauth/callback',
      { ...form, origin: 'https://evil.example' },
      cb.searchParams.toString(),
    );
    expect(post.status).toBe(403);
    // Without an Origin (a browser that left it out) the route itself takes only GET.
    const bare = await rawRequest(s.url, 'POST', `/oauth/callback${cb.search}`, form, cb.searchParams.toString());
    expect(bare.status).not.toBe(200);
    expect(statusOf(s.app)?.status).toBe('needs-sign-in');

    const ok = await openAsBrowser(callback);
    expect(ok.status, ok.body).toBe(200);
    await until(() => statusOf(s.app)?.status === 'up', 'up after the real callback');

    // The same answer again (a replayed code): the state was used, so it is refused.
    const replay = await openAsBrowser(callback);
    expect(replay.status).toBe(400);
    expect(s.fixture.counts.codes).toBe(1);
    // The page never shows the code.
    expect(replay.body + ok.body).not.toContain(cb.searchParams.get('code')!);
  });
});
