// Operators signed in through the team's identity provider (a real OpenID provider on loopback) reach
// /control with the role their token's claim gives: a viewer reads, an approver answers approvals, an
// admin changes everything, and the agents' history says which operator made a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcFixture, type OidcFixture } from '../fixtures/oidc/server.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { CONTROL_METHODS } from '../../src-main/core/control/contract.js';
import { mayCall } from '../../src-main/core/control/roles.js';

let oidc: OidcFixture;
let s: TestApp;
let base: string;

beforeAll(async () => {
  oidc = await startOidcFixture();
  s = await startApp({ upstream: { builtin: 'demo' }, operators: { issuer: oidc.issuer }, agents: [{ id: 'default', approvals: 'ask' }] });
  base = s.url.replace(/\/mcp$/, '');
});
afterAll(async () => {
  await s?.stop();
  await oidc?.close();
});

async function tokenFor(client: string, resource = `${base}/control`): Promise<string> {
  const res = await fetch(`${oidc.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client}:${oidc.clients[client]}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'mcp' }),
  });
  const body = (await res.json()) as { access_token?: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.access_token!;
}

async function control(token: string, method: string, args: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/control/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; result?: unknown; error?: { code: string; message: string } } };
}

describe('operators signed in through the team identity provider', () => {
  it('a viewer reads and is refused every change with a sentence', async () => {
    const t = await tokenFor('ops-viewer');
    expect((await control(t, 'status')).status).toBe(200);
    expect((await control(t, 'history', { agent: 'default' })).status).toBe(200);
    for (const [method, args] of [
      ['promote', { agent: 'default', tool: 'mail_list_labels' }],
      ['approve', { agent: 'default', tool: 'mail_send_message' }],
      ['updateSettings', { compactDescriptions: true }],
      ['agentToken', { agent: 'default' }],
      ['clientConfigs', { agent: 'default' }],
      ['uiLink', {}],
    ] as const) {
      const r = await control(t, method, args);
      expect(r.status, method).toBe(403);
      expect(r.body.error?.message).toMatch(new RegExp(`Signed in as ops-viewer with the viewer role, which may not call ${method}`));
    }
  });

  it('a viewer and an approver are refused every method their role does not name, whatever its arguments', async () => {
    for (const role of ['viewer', 'approver'] as const) {
      const t = await tokenFor(`ops-${role}`);
      const closed = CONTROL_METHODS.filter((m) => !mayCall(role, m));
      expect(closed.length).toBeGreaterThan(20);
      for (const method of closed) {
        const r = await control(t, method, {});
        expect(r.status, `${role} ${method}`).toBe(403);
        expect(r.body.error?.message).toContain(`with the ${role} role, which may not call ${method}`);
      }
    }
  });

  it('an approver answers approvals but changes nothing else', async () => {
    const t = await tokenFor('ops-approver');
    expect((await control(t, 'pendingApprovals')).status).toBe(200);
    // Allowed to answer: nothing waits, so the answer is about the call, not the role.
    expect((await control(t, 'approve', { agent: 'default', tool: 'mail_send_message', deny: true })).status).not.toBe(403);
    expect((await control(t, 'promote', { agent: 'default', tool: 'mail_list_labels' })).status).toBe(403);
    // Allowing a tool ahead of its first call is a grant, and the grant says who made it.
    const allowed = await control(t, 'approve', { agent: 'default', tool: 'mail_send_message' });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    const grants = await control(t, 'grants', { agent: 'default' });
    expect(grants.body.result).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: 'mail_send_message', by: 'ops-approver' })]),
    );
  });

  it('an admin changes the working set, and the history says who did', async () => {
    const t = await tokenFor('ops-admin');
    const r = await control(t, 'promote', { agent: 'default', tool: 'mail_list_labels' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const h = await control(t, 'history', { agent: 'default' });
    expect(h.body.result).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: 'mail_list_labels', action: 'promote', by: 'ops-admin' })]),
    );
  });

  it('refuses a token without a role, and one for another resource', async () => {
    const none = await control(await tokenFor('team-bot'), 'status');
    expect(none.status).toBe(403);
    expect(none.body.error?.message).toMatch(/"roles" claim holds none of the roles/);
    const elsewhere = await control(await tokenFor('ops-admin', `${base}/mcp`), 'status');
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error?.message).toMatch(/for another resource/);
    const made = await control('not-a-token-0123456789', 'status');
    expect(made.status).toBe(401);
  });
});
