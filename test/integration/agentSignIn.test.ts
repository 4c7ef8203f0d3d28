// An agent endpoint signed in through a team's authorization server (a real OpenID provider on
// loopback): a client with no configured token finds where to sign in from the 401, as Claude Code
// does, gets a token for the endpoint and reaches the agent's working set; every token that is not
// exactly that is refused with a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SignJWT } from 'jose';
import { startOidcFixture, type OidcFixture } from '../fixtures/oidc/server.js';
import { startApp, type TestApp } from '../helpers/app.js';

let oidc: OidcFixture;
let s: TestApp;
let base: string;

beforeAll(async () => {
  oidc = await startOidcFixture();
  const raw = {
    upstream: { builtin: 'demo' },
    agents: [
      { id: 'team', approvals: 'allow', pins: ['mail_list_labels'], auth: { issuer: oidc.issuer, claim: 'groups', values: ['mcp-users'] } },
      { id: 'ops', approvals: 'allow', auth: { issuer: oidc.issuer } },
      { id: 'bot', token: 'a-secret-token-1234' },
      {
        id: 'opaque',
        approvals: 'allow',
        auth: {
          issuer: '__ISSUER__',
          introspection: { url: '__ISSUER__/token/introspection', clientId: 'team-bot', clientSecret: '__SECRET__' },
        },
      },
    ],
  };
  s = await startApp(
    JSON.parse(JSON.stringify(raw).replaceAll('__ISSUER__', oidc.issuer).replaceAll('__SECRET__', oidc.clients['team-bot']!)) as Record<
      string,
      unknown
    >,
  );
  base = s.url.replace(/\/mcp$/, '');
});
afterAll(async () => {
  await s?.stop();
  await oidc?.close();
});

async function tokenFor(client: string, resource?: string): Promise<string> {
  const res = await fetch(`${oidc.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client}:${oidc.clients[client]}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...(resource ? { resource, scope: 'mcp' } : {}) }),
  });
  const body = (await res.json()) as { access_token?: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.access_token!;
}

async function initialize(path: string, token?: string): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

async function refusal(res: Response): Promise<string> {
  return ((await res.json()) as { error: { message: string } }).error.message;
}

describe('an agent that signs in through the team authorization server', () => {
  it('answers 401 pointing at its metadata, which names the authorization server', async () => {
    const res = await initialize('/mcp/team');
    expect(res.status).toBe(401);
    expect(await refusal(res)).toMatch(/signs in through http:\/\/127\.0\.0\.1/);
    const header = res.headers.get('www-authenticate')!;
    const metadata = /resource_metadata="([^"]+)"/.exec(header)![1]!;
    expect(metadata).toBe(`${base}/.well-known/oauth-protected-resource/mcp/team`);
    const doc = (await (await fetch(metadata)).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({ resource: `${base}/mcp/team`, authorization_servers: [oidc.issuer] });
    // An agent without sign-in has no metadata to find.
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp/bot`)).status).toBe(404);
    // A token agent's 401 now says it wants a bearer token too, with no metadata to chase.
    const bot = await initialize('/mcp/bot');
    expect(bot.status).toBe(401);
    expect(bot.headers.get('www-authenticate')).toBe('Bearer realm="Working Set"');
  });

  it('lets a client with no configured token discover, sign in and reach the working set', async () => {
    const client = new Client({ name: 'ci-runner', version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({
      clientId: 'team-bot',
      clientSecret: oidc.clients['team-bot']!,
      expectedIssuer: oidc.issuer,
      scope: 'mcp',
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/team`), { authProvider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('mail_list_labels');
      const r = await client.callTool({ name: 'mail_list_labels', arguments: {} });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('refuses a person the claim does not allow, with a 403 and a sentence', async () => {
    const res = await initialize('/mcp/team', await tokenFor('intern-bot', `${base}/mcp/team`));
    expect(res.status).toBe(403);
    expect(await refusal(res)).toMatch(/"groups" claim does not hold one of "mcp-users"/);
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
  });

  it("refuses agent A's token on agent B's URL, and a token for another resource", async () => {
    const forTeam = await tokenFor('team-bot', `${base}/mcp/team`);
    const onOps = await initialize('/mcp/ops', forTeam);
    expect(onOps.status).toBe(401);
    expect(await refusal(onOps)).toMatch(/for another resource, not http:\/\/127\.0\.0\.1:\d+\/mcp\/ops/);
    expect(onOps.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect((await initialize('/mcp/ops', await tokenFor('team-bot', `${base}/mcp/ops`))).status).toBe(200);
  });

  it('refuses expired tokens, another issuer, alg none, an HMAC signed with the public key and unknown keys', async () => {
    const now = Math.floor(Date.now() / 1000);
    const aud = `${base}/mcp/ops`;
    const claims = { iss: oidc.issuer, aud, sub: 'x' };
    const expired = await oidc.sign({ ...claims, iat: now - 7200, exp: now - 3600 });
    expect(await refusal(await initialize('/mcp/ops', expired))).toMatch(/has expired/);
    const foreign = await oidc.sign({ ...claims, iss: 'https://evil.example', exp: now + 600 });
    expect(await refusal(await initialize('/mcp/ops', foreign))).toMatch(/issued by another server/);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: now + 600 })}.`;
    expect(await refusal(await initialize('/mcp/ops', none))).toMatch(/algorithm this endpoint does not accept|not a signed JWT/);
    const confused = await new SignJWT({ ...claims, exp: now + 600 })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new TextEncoder().encode(JSON.stringify(oidc.publicJwk)));
    expect(await refusal(await initialize('/mcp/ops', confused))).toMatch(/algorithm this endpoint does not accept/);
    const before = oidc.counts.jwks;
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => oidc.sign({ ...claims, exp: now + 600 }, { kid: `forged-${i}` })));
    const answers = await Promise.all(made.map((t) => initialize('/mcp/ops', t)));
    expect(answers.every((r) => r.status === 401)).toBe(true);
    expect(await refusal(answers[0]!)).toMatch(/key http:\/\/127\.0\.0\.1:\d+ does not publish/);
    // A flood of made-up key ids costs at most one more fetch of the key set (the cooldown).
    expect(oidc.counts.jwks - before).toBeLessThanOrEqual(1);
  });

  it('checks an opaque token by introspection where the config says so, and refuses one the server does not know', async () => {
    const opaque = await tokenFor('team-bot');
    expect(opaque.split('.')).toHaveLength(1);
    expect((await initialize('/mcp/opaque', opaque)).status).toBe(200);
    const unknown = await initialize('/mcp/opaque', 'made-up-token-0123456789');
    expect(unknown.status).toBe(401);
    expect(await refusal(unknown)).toMatch(/not active/);
  });
});
