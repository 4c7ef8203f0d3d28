// "Test" on a server that signs in with OAuth says so and points at Sign in, instead of blaming a
// credential the user never had to give (a real OAuth-protected server on loopback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture } from '../fixtures/oauth/server.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { upstreamFailure } from '../../src-main/shared/errorWords.js';

let fixture: Awaited<ReturnType<typeof startOAuthFixture>>;
let s: TestApp;
beforeAll(async () => {
  fixture = await startOAuthFixture(() => Date.now());
  s = await startApp({ upstream: { builtin: 'demo' } });
});
afterAll(async () => {
  await s?.stop();
  await fixture?.close();
});

describe('Test on an OAuth server', () => {
  it('says the server signs in with OAuth and how to sign in, in the core and in the window words', async () => {
    const r = await s.app.control.testUpstream({ upstream: { url: fixture.url } });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/^This server signs in with OAuth\. Save it, then click Sign in/);
    expect(upstreamFailure(r.error!, { url: fixture.url })).toBe(r.error);
    const named = await s.app.control.testUpstream({ upstream: { url: fixture.url }, vendor: 'secure' });
    expect(named.error).toMatch(/mws login secure/);
  });

  it('still says "refused our credentials" for a 401 that names no sign-in', () => {
    expect(upstreamFailure('Streamable HTTP error: 401 Unauthorized')).toMatch(/refused our credentials/);
  });
});
