// Two replicas sharing one PostgreSQL store, both finding the same upstream's access token about to
// expire at once: the sign-in server sees one refresh (a rotating refresh token is spent once), and
// both replicas end with the new access token. The lock is the store's per-upstream advisory lock.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src-main/core/log.js';
import { openPostgresStore, type PostgresStateStore } from '../../src-main/core/statestore/postgres/store.js';
import { parseKey } from '../../src-main/core/statestore/seal.js';
import { clientSdk } from '../../src-main/core/upstream/clientSdk.js';
import { SignInFlows } from '../../src-main/core/upstream/oauth/flows.js';
import { UpstreamAuth } from '../../src-main/core/upstream/oauth/upstreamAuth.js';
import { serverFetch } from '../../src-main/core/upstream/transports.js';
import { ACCESS_TOKEN_SECONDS, startOAuthFixture, type OAuthFixture } from '../fixtures/oauth/server.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { withDeadline } from '../helpers/wait.js';

let db: TestPostgres;
let fixture: OAuthFixture;
const clock = { t: Date.parse('2026-03-01T10:00:00Z'), now: () => clock.t };
beforeAll(async () => {
  db = await startPostgres();
  fixture = await startOAuthFixture(() => clock.now());
});
afterAll(async () => {
  await fixture?.close();
  await db?.stop();
});
const open: PostgresStateStore[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((s) => s.close()));
});

const REDIRECT = 'http://127.0.0.1:9/oauth/callback';

function replica(store: PostgresStateStore): UpstreamAuth {
  return new UpstreamAuth({
    vendor: 'acme',
    serverUrl: fixture.url,
    config: {},
    store: store.oauth,
    flows: new SignInFlows(clock.now),
    redirectUrl: () => REDIRECT,
    now: clock.now,
    log: new MemoryLogger(),
  });
}

/** Signs in through the SDK as a person would: the authorization link followed, the code redeemed. */
async function signIn(a: UpstreamAuth): Promise<void> {
  const { auth } = await clientSdk();
  expect(await auth(a, { serverUrl: fixture.url })).toBe('REDIRECT');
  expect(a.captureFlow({ finishAuth: async () => {} }, () => {})).toBe(true);
  const res = await fetch(a.pendingUrl()!, { redirect: 'manual' });
  const code = new URL(res.headers.get('location')!).searchParams.get('code');
  expect(code).toBeTruthy();
  expect(await auth(a, { serverUrl: fixture.url, authorizationCode: code! })).toBe('AUTHORIZED');
}

async function twoReplicas(name: string): Promise<[UpstreamAuth, UpstreamAuth]> {
  const url = await db.freshDatabase(name);
  const key = parseKey(randomBytes(32).toString('base64'), 'the test');
  const stores = await Promise.all(
    [0, 1].map(async () => {
      const s = await openPostgresStore({ url, log: new MemoryLogger(), key: () => key });
      open.push(s);
      return s;
    }),
  );
  return stores.map(replica) as [UpstreamAuth, UpstreamAuth];
}

describe('OAuth refresh across replicas on PostgreSQL', () => {
  it("after a 401 on both replicas at once, the SDK's own refreshes spend the refresh token once; both keep the new tokens", async () => {
    const [a, b] = await twoReplicas('oauth_fleet_401');
    await signIn(a);
    const first = await b.tokens();
    fixture.dropAccessTokens();
    const before = { ...fixture.counts };
    const { auth } = await clientSdk();
    // What each replica's transport does on a 401: the SDK's auth() through the connection's fetch.
    const results = await withDeadline(
      Promise.all([a, b].map((x) => auth(x, { serverUrl: fixture.url, fetchFn: serverFetch(fetch, fixture.url, x).fetch }))),
      'both replicas to refresh after the 401',
    );
    expect(results).toEqual(['AUTHORIZED', 'AUTHORIZED']);
    expect(fixture.counts.refreshAttempts - before.refreshAttempts).toBe(1);
    const [ta, tb] = await Promise.all([a.tokens(), b.tokens()]);
    expect(ta?.access_token).not.toBe(first?.access_token);
    expect(tb?.access_token).toBe(ta?.access_token);
    expect(tb?.refresh_token).toBe(ta?.refresh_token);
    expect((await b.signedIn()).signedIn).toBe(true);
  });

  it('two replicas refreshing the same upstream at once spend the refresh token once and both get the new access token', async () => {
    const url = await db.freshDatabase('oauth_fleet');
    const key = parseKey(randomBytes(32).toString('base64'), 'the test');
    const stores = await Promise.all(
      [0, 1].map(async () => {
        const s = await openPostgresStore({ url, log: new MemoryLogger(), key: () => key });
        open.push(s);
        return s;
      }),
    );
    const [a, b] = stores.map(replica) as [UpstreamAuth, UpstreamAuth];
    await signIn(a);
    const first = (await b.tokens())?.access_token;
    expect(first).toBeTruthy();

    // Both replicas now see the token within the refresh-ahead margin.
    clock.t += ACCESS_TOKEN_SECONDS * 1000 - 30_000;
    const before = { ...fixture.counts };
    await withDeadline(Promise.all([a.refreshIfExpiring(fetch), b.refreshIfExpiring(fetch)]), 'both replicas to refresh');

    expect(fixture.counts.refreshAttempts - before.refreshAttempts).toBe(1);
    expect(fixture.counts.refreshes - before.refreshes).toBe(1);
    const [ta, tb] = await Promise.all([a.tokens(), b.tokens()]);
    expect(ta?.access_token).toBeTruthy();
    expect(ta?.access_token).not.toBe(first);
    expect(tb?.access_token).toBe(ta?.access_token);
    expect(tb?.refresh_token).toBe(ta?.refresh_token);
    // The new token is one the server takes.
    const res = await fetch(fixture.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tb!.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(200);
  });
});
