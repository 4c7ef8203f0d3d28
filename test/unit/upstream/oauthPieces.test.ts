// The small OAuth decisions of our own: which issuer mismatch a 2025-03-26 server may have, sign-in
// links used once and only while fresh, tokens kept 0600 and never shared across server URLs.
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { IssuerMismatchError } from '@modelcontextprotocol/client';
import { clientSdk } from '../../../src-main/core/upstream/clientSdk.js';
import { legacyIssuer } from '../../../src-main/core/upstream/oauth/legacyIssuer.js';
import { SIGN_IN_TTL_MS, SignInFlows } from '../../../src-main/core/upstream/oauth/flows.js';
import { FileOAuthStore, MemoryOAuthStore } from '../../../src-main/core/upstream/oauth/store.js';
import { UpstreamAuth } from '../../../src-main/core/upstream/oauth/upstreamAuth.js';
import { upstreamJson } from '../../../src-main/core/control/upstreamConfig.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { tempDir } from '../../helpers/app.js';

describe('the 2025-03-26 issuer allowance', () => {
  it("lets a path on the server's own origin through, never another origin or a callback mix-up", async () => {
    await clientSdk();
    const server = 'http://localhost:4000/mcp';
    expect(legacyIssuer(new IssuerMismatchError('metadata', 'http://localhost:4000/', 'http://localhost:4000/oauth'), server)).toBe(true);
    expect(legacyIssuer(new IssuerMismatchError('metadata', 'http://localhost:4000/', 'https://evil.example/oauth'), server)).toBe(false);
    expect(legacyIssuer(new IssuerMismatchError('metadata', 'http://localhost:4000/tenant', 'http://localhost:4000/other'), server)).toBe(
      false,
    );
    expect(
      legacyIssuer(new IssuerMismatchError('authorization_response', 'http://localhost:4000/', 'http://localhost:4000/x'), server),
    ).toBe(false);
    expect(legacyIssuer(new Error('other'), server)).toBe(false);
  });
});

describe('sign-in flows', () => {
  it('are found by state once, one per upstream, and expire', () => {
    let now = 0;
    const flows = new SignInFlows(() => now);
    const finish = async () => {};
    flows.register({ vendor: 'a', state: 's1', url: 'https://as/authorize?state=s1', finish });
    flows.register({ vendor: 'a', state: 's2', url: 'https://as/authorize?state=s2', finish });
    expect(flows.take('s1')).toBeUndefined();
    expect(flows.pending('a')?.state).toBe('s2');
    expect(flows.take('s2')?.vendor).toBe('a');
    expect(flows.take('s2')).toBeUndefined();
    flows.register({ vendor: 'b', state: 's3', url: 'u', finish });
    now += SIGN_IN_TTL_MS + 1;
    expect(flows.take('s3')).toBeUndefined();
  });
});

describe('a callback being redeemed', () => {
  it('still counts as waiting until its tokens are in, so `mws login` does not read it as given up', async () => {
    const flows = new SignInFlows(() => 0);
    let release!: () => void;
    const exchanged = new Promise<void>((r) => (release = r));
    flows.register({ vendor: 'a', state: 's1', url: 'https://as/authorize?state=s1', finish: () => exchanged });
    const flow = flows.take('s1')!;
    expect(flows.pending('a')).toBeUndefined();
    const redeemed = flows.redeem(flow, new URLSearchParams('code=c&state=s1'));
    expect(flows.isRedeeming('a')).toBe(true);
    release();
    await redeemed;
    expect(flows.isRedeeming('a')).toBe(false);
    // A failed redemption ends the wait too.
    flows.register({ vendor: 'a', state: 's2', url: 'u', finish: () => Promise.reject(new Error('invalid_grant')) });
    await expect(flows.redeem(flows.take('s2')!, new URLSearchParams())).rejects.toThrow('invalid_grant');
    expect(flows.isRedeeming('a')).toBe(false);
  });
});

describe('the OAuth store', () => {
  it('writes one 0600 file, and a record made for another URL is not used', async () => {
    const dir = tempDir();
    const store = new FileOAuthStore(dir, new MemoryLogger());
    const make = (serverUrl: string) =>
      new UpstreamAuth({
        vendor: 'x',
        serverUrl,
        config: {},
        store,
        flows: new SignInFlows(() => 0),
        redirectUrl: () => 'http://127.0.0.1:1/oauth/callback',
        now: () => 1000,
        log: new MemoryLogger(),
      });
    await make('https://a.example/mcp').saveTokens({ access_token: 'AT', token_type: 'Bearer', expires_in: 60, refresh_token: 'RT' });
    expect(statSync(join(dir, 'oauth.json')).mode & 0o777).toBe(0o600);
    expect((await store.get('x'))?.tokens).toMatchObject({ access_token: 'AT', expiresAt: 61_000 });
    expect(await make('https://a.example/mcp').tokens()).toMatchObject({ access_token: 'AT' });
    expect(await make('https://b.example/mcp').tokens()).toBeUndefined();
  });

  it('keeps the refresh token when a refresh answer leaves it out, and forgets a registration made for another redirect URI', async () => {
    const store = new MemoryOAuthStore();
    let redirect = 'http://127.0.0.1:1/oauth/callback';
    const a = new UpstreamAuth({
      vendor: 'x',
      serverUrl: 'https://a/mcp',
      config: {},
      store,
      flows: new SignInFlows(() => 0),
      redirectUrl: () => redirect,
      now: () => 0,
      log: new MemoryLogger(),
    });
    await a.saveTokens({ access_token: 'A1', token_type: 'Bearer', refresh_token: 'R1' });
    await a.saveTokens({ access_token: 'A2', token_type: 'Bearer' });
    expect(await a.tokens()).toMatchObject({ access_token: 'A2', refresh_token: 'R1' });
    await a.saveClientInformation({ client_id: 'c1' });
    expect(await a.clientInformation()).toMatchObject({ client_id: 'c1' });
    redirect = 'http://127.0.0.1:2/oauth/callback';
    expect(await a.clientInformation()).toBeUndefined();
  });
});

describe('asking the authorization server whether it still knows our registration', () => {
  it('is spent on a registration from an earlier run, or on a link asked for again, not on each new link', async () => {
    const store = new MemoryOAuthStore();
    const make = () =>
      new UpstreamAuth({
        vendor: 'x',
        serverUrl: 'https://a/mcp',
        config: {},
        store,
        flows: new SignInFlows(() => 0),
        redirectUrl: () => 'http://127.0.0.1:1/oauth/callback',
        now: () => 0,
        log: new MemoryLogger(),
      });
    const asked: string[] = [];
    const forgot = async (url: string | URL | Request) => (
      asked.push(String(url)),
      new Response('{"error":"invalid_client"}', { status: 400 })
    );
    const a = make();
    await a.saveClientInformation({ client_id: 'c1' });
    // Registered in this process: each new link goes out as it is (a retry loop stays within the server's limit).
    expect(await a.linkRefused('https://as/authorize?state=1', forgot)).toBe(false);
    expect(await a.linkRefused('https://as/authorize?state=2', forgot)).toBe(false);
    expect(asked).toEqual([]);
    // The same link asked for again, unredeemed: the browser may have met the server's dead end.
    expect(await a.linkRefused('https://as/authorize?state=2', forgot)).toBe(true);
    // A later run holds the registration from disk: its first link is checked.
    expect(await make().linkRefused('https://as/authorize?state=3', forgot)).toBe(true);
    expect(asked).toHaveLength(2);
  });
});

describe('an upstream edited in the window', () => {
  it('keeps its oauth and transport settings, which the form does not show', () => {
    const prev = { url: 'https://a/mcp', oauth: { clientId: 'id', clientSecret: 's' }, transport: 'sse' };
    expect(upstreamJson({ url: 'https://a/mcp2' }, prev)).toEqual({
      url: 'https://a/mcp2',
      oauth: { clientId: 'id', clientSecret: 's' },
      transport: 'sse',
    });
  });
});
