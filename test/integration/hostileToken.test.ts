// A hostile sign-in server answers the code exchange with an access token holding ESC and BEL. Against
// a real instance: the callback page says what was wrong in a sentence (not "a bug in mws"), nothing is
// kept, the upstream still says it needs a sign-in, and the instance keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../helpers/app.js';
import { signInAsBrowser } from '../helpers/oauth.js';

let server: Server;
let s: TestApp;
let origin = '';
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url?.split('?')[0]}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', origin);
    req.resume();
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server') || url.pathname.startsWith('/.well-known/openid-configuration'))
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    if (url.pathname === '/register') return json(201, { client_id: 'hostile-client', redirect_uris: ['http://127.0.0.1/cb'] });
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'c0de');
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token') return json(200, { access_token: 'tok\u001b[2J\u0007en', token_type: 'Bearer', expires_in: 3600 });
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"` });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s = await startApp({ upstreams: { evil: { url: `${origin}/mcp` } } });
});
afterAll(async () => {
  await s?.stop();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('a token holding terminal controls', () => {
  it('is refused at the callback with a sentence; nothing is kept and the instance keeps answering', async () => {
    const status = () => s.app.control.status({}).then((v) => v.upstreams.find((u) => u.vendor === 'evil'));
    await expect.poll(async () => (await status())?.status, { timeout: 20_000 }).toBe('needs-sign-in');
    const link = await s.app.control.signIn({ vendor: 'evil' });
    expect(link.status).toBe('waiting');
    const landed = await signInAsBrowser(link.url!);
    expect(hits).toContain('POST /token');
    expect(landed.status).toBe(400);
    expect(landed.body).toMatch(/sent an access token with characters a token cannot hold/);
    expect(landed.body).not.toMatch(/bug in mws/);
    const after = await status();
    expect(after?.status).toBe('needs-sign-in');
    expect(after?.auth?.signedIn).toBe(false);
    expect(after?.lastError ?? '').not.toMatch(/\u001b|\u0007|Nothing answers/);
    expect((await s.app.control.status({})).toolboxSize).toBeGreaterThanOrEqual(0);
  });
});
