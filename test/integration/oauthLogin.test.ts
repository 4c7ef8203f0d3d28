// `mws login` / `mws logout` as a person runs them headless: the link is printed, a browser (here:
// this test, following the redirect) lands on the instance's /oauth/callback, and the command ends
// signed in. Against the OAuth fixture (v1 SDK mcpAuthRouter) in this process.
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOAuthFixture } from '../fixtures/oauth/server.js';
import { connectClient, tempDir, textOf, TEST_LIST_MS } from '../helpers/app.js';
import { exited, runMws, spawnMws, waitForOutput, type Running } from '../helpers/processes.js';
import { signInAsBrowser } from '../helpers/oauth.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s().catch(() => {});
});

function mws(args: string[]): Running {
  // No DISPLAY: the command must only print the link, never try to open a browser here.
  const r = spawnMws(args, { DISPLAY: '', WAYLAND_DISPLAY: '' });
  stops.push(() => r.kill());
  return r;
}

async function setup() {
  const fixture = await startOAuthFixture(() => Date.now());
  stops.push(() => fixture.close());
  const dir = tempDir();
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      upstreams: { secure: { url: fixture.url } },
      stateDir: join(dir, 'state'),
      listen: { host: '127.0.0.1', port: 0 },
      agents: [{ id: 'default', approvals: 'allow', pins: ['secure__whoami'] }],
      timeouts: { listMs: TEST_LIST_MS },
    }),
  );
  return { fixture, config };
}

async function login(config: string): Promise<string> {
  const r = mws(['login', 'secure', '--config', config]);
  const link = (await waitForOutput(r, /^\s+(http:\/\/\S+)$/m, 'mws login to print the sign-in link'))[1]!;
  const landed = await signInAsBrowser(link);
  expect(landed.status, landed.body).toBe(200);
  expect(await exited(r, 'mws login'), r.stdout() + r.stderr()).toBe(0);
  expect(r.stdout()).toMatch(/Signed in to "secure"/);
  return link;
}

describe('mws login / logout', () => {
  it('signs a running instance in, its tools answer, and logout revokes', async () => {
    const { fixture, config } = await setup();
    const serve = mws(['serve', '--config', config]);
    const url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;

    // Before: `mws report` says it needs sign-in (not "down").
    await expect
      .poll(async () => (await runMws(['report', '--config', config])).out, { timeout: 20_000 })
      .toMatch(/upstream "secure" needs sign-in/);

    const link = await login(config);
    expect(new URL(link).searchParams.get('redirect_uri')).toBe(url.replace(/\/mcp$/, '/oauth/callback'));
    const c = await connectClient(url, 'legacy');
    stops.push(() => c.close());
    await c.until((tools) => tools.some((t) => t.name === 'secure__whoami'), 'secure__whoami listed');
    expect(textOf(await c.client.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');

    const out = await runMws(['logout', 'secure', '--config', config]);
    expect(out.code, out.err).toBe(0);
    expect(out.out).toMatch(/Signed out of "secure"; the server revoked the tokens/);
    expect(fixture.counts.revoked).toBeGreaterThan(0);

    // The server forgets its clients (a restart): `mws login` registers again instead of printing a
    // link that ends on the server's invalid_client page.
    fixture.forgetClients();
    const again = await login(config);
    expect(new URL(again).searchParams.get('client_id')).toBe('client-2');
    expect(fixture.counts.registrations).toBe(2);
  });

  it('with no instance running, runs one until the sign-in is done; a later serve uses the tokens', async () => {
    const { fixture, config } = await setup();
    await login(config);
    const serve = mws(['serve', '--config', config]);
    const url = (await waitForOutput(serve, /listening on (http:\/\/\S+\/mcp)/, 'mws serve'))[1]!;
    const c = await connectClient(url, 'legacy');
    stops.push(() => c.close());
    await c.until((tools) => tools.some((t) => t.name === 'secure__whoami'), 'secure__whoami listed with the saved tokens');
    expect(textOf(await c.client.callTool({ name: 'secure__whoami', arguments: {} }))).toBe('hello client-1');
    expect(fixture.counts.codes).toBe(1);
  });
});
