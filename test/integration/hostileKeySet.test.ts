// A hostile (or broken) authorization server's key set, as a token check meets it: one that answers
// 10 MB, one that never answers, one that answers with a page. Each refusal is a sentence, comes within
// the read's time limit, and holds no more than the size limit. The server is the attacker here, so it
// is written by hand: a real provider would never answer like this.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import { AgentTokens } from '../../src-main/core/http/agentTokens.js';

let server: Server;
let origin: string;
const hung: Array<() => void> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const [, tenant, rest] = /^\/([^/]+)(\/.*)$/.exec(req.url ?? '') ?? [];
    const issuer = `${origin}/${tenant}`;
    if (rest === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else if (rest === '/jwks' && tenant === 'huge') {
      // 10 MB of a key set that never ends.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys":[');
      const chunk = `{"kty":"RSA","n":"${'A'.repeat(64 * 1024)}","e":"AQAB"},`;
      for (let i = 0; i < 160; i++) res.write(chunk);
      res.end('{}]}');
    } else if (rest === '/jwks' && tenant === 'silent') {
      hung.push(() => res.destroy());
    } else if (rest === '/jwks' && tenant === 'page') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hung.forEach((h) => h());
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function tokenFrom(tenant: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  return new SignJWT({ sub: 'someone' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(`${origin}/${tenant}`)
    .setAudience('http://127.0.0.1/mcp')
    .setExpirationTime('5m')
    .sign(privateKey);
}

describe("an authorization server's key set that attacks the check", () => {
  it('10 MB is refused once 1 MB is read, with a sentence', async () => {
    const before = process.memoryUsage().rss;
    const v = await new AgentTokens().claims(await tokenFrom('huge'), { issuer: `${origin}/huge`, audience: 'http://127.0.0.1/mcp' });
    expect(v.ok).toBe(false);
    expect(!v.ok && v.message).toMatch(/the key set of http:\/\/127\.0\.0\.1:\d+\/huge is larger than 1024 KB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('one that never answers is given up within its time limit, with a sentence', async () => {
    const started = Date.now();
    const v = await new AgentTokens().claims(await tokenFrom('silent'), { issuer: `${origin}/silent`, audience: 'http://127.0.0.1/mcp' });
    expect(v.ok).toBe(false);
    // The server is unavailable, not the token wrong: 503, try again later.
    expect(!v.ok && v.status).toBe(503);
    expect(!v.ok && v.message).toMatch(/could not be fetched in time, so the token could not be checked\. Try again shortly\./);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('a page instead of keys is refused with a sentence', async () => {
    const v = await new AgentTokens().claims(await tokenFrom('page'), { issuer: `${origin}/page`, audience: 'http://127.0.0.1/mcp' });
    expect(v.ok).toBe(false);
    expect(!v.ok && v.message.length).toBeGreaterThan(20);
  });
});
