// `mws login --operator URL` as a person runs it against a remote instance: the CLI finds the team's
// provider from the instance's /control metadata, prints a device-flow link, the person confirms it in
// a real browser (Debian's Chromium) at a real OpenID provider (oidc-provider), and commands run with
// MWS_REMOTE=URL then act as that person, with their role; the token is refreshed when it is about to
// expire, and `mws logout --operator` forgets and revokes it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_CLIENT } from '../fixtures/oidc/server.js';
import { startApp, tempDir } from '../helpers/app.js';
import { operatorsRig } from '../helpers/operators.js';
import { exited, runMws, spawnMws, waitForOutput } from '../helpers/processes.js';
import { WAIT_MS } from '../helpers/wait.js';
import { operatorToken } from '../../src-main/core/operators/logins.js';

const rig = operatorsRig({ cli: { clientId: CLI_CLIENT } });

/** A person's own machine: its own config and state folder. */
function laptop(): { env: NodeJS.ProcessEnv; stateDir: string } {
  const stateDir = tempDir('mws-laptop-');
  const config = join(stateDir, 'config.json');
  writeFileSync(config, JSON.stringify({ stateDir }));
  return { env: { MWS_CONFIG: config }, stateDir };
}

/** Runs `mws login --operator`, confirms its link in the browser as `person`; answers the CLI's exit and output. */
async function signIn(env: NodeJS.ProcessEnv, person: string | undefined) {
  rig.oidc.signInAs(person);
  const cli = spawnMws(['login', '--operator', rig.base, '--no-browser'], env);
  const [, link] = await waitForOutput(cli, /\n {2}(http\S+)\n/, 'the device sign-in link');
  const page = await rig.browser.newPage();
  try {
    await page.goto(link!);
    await page.click('#confirm', { timeout: WAIT_MS });
    await page.waitForSelector(person ? '#done' : '#error', { timeout: WAIT_MS });
  } finally {
    await page.close();
  }
  const code = await exited(cli, 'mws login --operator');
  return { code, out: cli.stdout(), err: cli.stderr() };
}

describe('mws login --operator', () => {
  it('signs a person in by the device flow; commands then act as them with their role', async () => {
    const me = laptop();
    const r = await signIn(me.env, 'alice');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`Signed in to ${rig.base} as alice (admin)`);
    const remote = { ...me.env, MWS_REMOTE: rig.base };
    const status = await runMws(['status', '--json'], remote);
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out).operator).toEqual({ name: 'alice', role: 'admin' });
    // An admin's change is recorded as theirs.
    const promoted = await runMws(['promote', 'mail_list_labels', '--agent', 'default'], remote);
    expect(promoted.code, promoted.err).toBe(0);
    const history = await rig.s.app.control.history({ agent: 'default' });
    expect(history).toEqual(expect.arrayContaining([expect.objectContaining({ tool: 'mail_list_labels', by: 'alice' })]));
    // The tokens are the person's own: the file is theirs alone.
    const file = join(me.stateDir, 'operator-logins.json');
    expect((await import('node:fs')).statSync(file).mode & 0o777).toBe(0o600);
  });

  it("a viewer's CLI reads and is refused a change with a sentence", async () => {
    const me = laptop();
    expect((await signIn(me.env, 'carol')).code).toBe(0);
    const remote = { ...me.env, MWS_REMOTE: rig.base };
    expect((await runMws(['status'], remote)).code).toBe(0);
    const refused = await runMws(['promote', 'mail_list_labels', '--agent', 'default'], remote);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/Signed in as carol with the viewer role, which may not call promote/);
  });

  it('refreshes a token about to expire, and logout forgets and revokes it', async () => {
    const me = laptop();
    expect((await signIn(me.env, 'bob')).code).toBe(0);
    const file = join(me.stateDir, 'operator-logins.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'))[rig.base];
    expect(stored.refreshToken).toBeTruthy();
    // Ten seconds left: the next command renews it first.
    writeFileSync(file, JSON.stringify({ [rig.base]: { ...stored, expiresAt: Date.now() + 10_000 } }));
    const remote = { ...me.env, MWS_REMOTE: rig.base };
    const status = await runMws(['status', '--json'], remote);
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out).operator).toEqual({ name: 'bob', role: 'approver' });
    const renewed = JSON.parse(readFileSync(file, 'utf8'))[rig.base];
    expect(renewed.accessToken).not.toBe(stored.accessToken);
    expect(renewed.expiresAt).toBeGreaterThan(Date.now() + 60_000);

    const out = await runMws(['logout', '--operator', rig.base], me.env);
    expect(out.code, out.err).toBe(0);
    expect(out.out).toContain('the identity provider revoked the sign-in');
    const after = await runMws(['status'], remote);
    expect(after.code).not.toBe(0);
    expect(after.err).toContain(`You are not signed in to ${rig.base}. Run \`mws login --operator ${rig.base}\` first.`);
    // The revoked refresh token no longer renews anything at the provider.
    const reuse = await fetch(`${rig.oidc.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: renewed.refreshToken, client_id: CLI_CLIENT }),
    });
    expect(reuse.status).toBe(400);
  });

  it('renews once when several callers find the token about to expire (the provider spends a refresh token once)', async () => {
    const me = laptop();
    expect((await signIn(me.env, 'alice')).code).toBe(0);
    const file = join(me.stateDir, 'operator-logins.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'))[rig.base];
    writeFileSync(file, JSON.stringify({ [rig.base]: { ...stored, expiresAt: Date.now() + 10_000 } }));
    const tokens = await Promise.all([1, 2, 3].map(() => operatorToken(me.stateDir, rig.base)));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(stored.accessToken);
    const status = await runMws(['status', '--json'], { ...me.env, MWS_REMOTE: rig.base });
    expect(status.code, status.err).toBe(0);
  });

  it('a sign-in refused in the browser ends with a sentence and keeps nothing', async () => {
    const me = laptop();
    const r = await signIn(me.env, undefined);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/did not complete: it was refused in the browser/);
    expect(() => readFileSync(join(me.stateDir, 'operator-logins.json'))).toThrow();
  });

  it('refuses an instance without operators, and a plain-http remote address, with sentences', async () => {
    const plain = await startApp({ upstream: { builtin: 'demo' } });
    try {
      const r = await runMws(['login', '--operator', plain.url.replace(/\/mcp$/, '')], laptop().env);
      expect(r.code).not.toBe(0);
      expect(r.err).toMatch(/does not sign operators in through an identity provider/);
    } finally {
      await plain.stop();
    }
    const r = await runMws(['login', '--operator', 'http://mws.example.com'], laptop().env);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/is not https: a sign-in token would cross the network in the clear/);
  });
});
