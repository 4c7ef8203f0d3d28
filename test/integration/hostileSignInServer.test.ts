// A hostile sign-in server chooses what the OS would open: its metadata names a `file:` URL (a .desktop
// launcher) as its authorization endpoint. `mws login` (and the control's signIn) must refuse it with
// a sentence, print no link, and open nothing. The server here is a bare loopback HTTP server.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir, TEST_LIST_MS } from '../helpers/app.js';
import { runMws } from '../helpers/processes.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s().catch(() => {});
});

/** An MCP URL that always wants a sign-in, and an authorization server whose endpoint is `endpoint`. */
async function hostileServer(endpoint: string): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url?.startsWith('/.well-known/oauth-protected-resource'))
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (req.url?.startsWith('/.well-known/oauth-authorization-server') || req.url?.startsWith('/.well-known/openid-configuration'))
      return json(200, {
        issuer: origin,
        authorization_endpoint: endpoint,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    if (req.url === '/register') return json(201, { client_id: 'hostile-client', redirect_uris: ['http://127.0.0.1/cb'] });
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"` });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stops.push(() => new Promise((r) => server.close(() => r())));
  return { url: `${origin}/mcp`, hits };
}

describe('a sign-in server naming a link that must not be opened', () => {
  for (const endpoint of ['file:///tmp/mws-evil.desktop', 'http://auth.example.com/authorize']) {
    it(`mws login refuses ${endpoint.split(':')[0]}: with a sentence, prints no link and opens nothing`, async () => {
      const hostile = await hostileServer(endpoint);
      const dir = tempDir();
      // Every opener a browser launch could reach writes a marker: none may be written.
      const marker = join(dir, 'opened');
      const opener = join(dir, 'xdg-open');
      writeFileSync(opener, `#!/bin/sh\necho "$@" >> '${marker}'\n`);
      chmodSync(opener, 0o755);
      const config = join(dir, 'config.json');
      writeFileSync(
        config,
        JSON.stringify({
          upstreams: { hostile: { url: hostile.url } },
          stateDir: join(dir, 'state'),
          listen: { host: '127.0.0.1', port: 0 },
          agents: [{ id: 'default', approvals: 'allow' }],
          timeouts: { listMs: TEST_LIST_MS },
        }),
      );
      const r = await runMws(['login', 'hostile', '--config', config], {
        DISPLAY: ':0',
        BROWSER: opener,
        PATH: `${dir}:${process.env.PATH ?? ''}`,
        SSH_CONNECTION: '',
        SSH_TTY: '',
      });
      // The server was really asked (the refusal is ours, not a failed discovery).
      expect(
        hostile.hits.some((h) => h.startsWith('POST /register')),
        hostile.hits.join('\n'),
      ).toBe(true);
      expect(r.code, r.out + r.err).not.toBe(0);
      expect(r.err).toMatch(/named a sign-in link that Working Set will not open or show/);
      expect(r.err).toMatch(endpoint.startsWith('file:') ? /a file: URL; only https: links/ : /plain http: to another machine/);
      expect(r.out + r.err).not.toMatch(/Sign in to "hostile" in your browser/);
      expect(r.out).not.toContain(endpoint);
      expect(r.err).not.toMatch(/a bug in mws/);
      expect(existsSync(marker)).toBe(false);
    });
  }
});
