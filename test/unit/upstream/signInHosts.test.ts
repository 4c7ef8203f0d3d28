// The rule for which hosts sign-in discovery may reach (oauth/signInHosts.ts), as pure units, and the
// guard refusing a public upstream's metadata that names 127.0.0.1 before anything is sent (fetch twin).
import { describe, expect, it } from 'vitest';
import { clientSdk } from '../../../src-main/core/upstream/clientSdk.js';
import { upstreamFetch } from '../../../src-main/core/upstream/transports.js';
import {
  SignInHostRefused,
  guardSignInHosts,
  hostClass,
  literalClass,
  signInHostAllowed,
} from '../../../src-main/core/upstream/oauth/signInHosts.js';

describe('address classes', () => {
  it('knows loopback, private, link-local and public literals, and localhost names', () => {
    for (const h of [
      '127.0.0.1',
      '127.9.9.9',
      '[::1]',
      '::1',
      'localhost',
      'LOCALHOST',
      'a.localhost',
      '0.0.0.0',
      '[::]',
      '[::ffff:127.0.0.1]',
    ])
      expect(literalClass(h), h).toBe('loopback');
    for (const h of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '[fd00::1]', '::ffff:10.0.0.1'])
      expect(literalClass(h), h).toBe('private');
    for (const h of ['169.254.169.254', '[fe80::1]']) expect(literalClass(h), h).toBe('link-local');
    for (const h of ['8.8.8.8', '172.32.0.1', '[2001:db8::1]', '1.1.1.1']) expect(literalClass(h), h).toBe('public');
    expect(literalClass('auth.example.com')).toBeUndefined();
    // As a URL spells them: decimal, hex and short IPv4, hex IPv4-mapped IPv6, a trailing dot.
    for (const [u, c] of [
      ['http://2130706433/', 'loopback'],
      ['http://0x7f.1/', 'loopback'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'],
      ['http://localhost./', 'loopback'],
      ['http://[::ffff:a00:1]/', 'private'],
      ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ] as const)
      expect(literalClass(new URL(u).hostname), u).toBe(c);
  });

  it('judges a name by every address it resolves to', async () => {
    const lookup = async (h: string) => ({ 'rebind.example': ['93.184.216.34', '127.0.0.1'], 'ok.example': ['93.184.216.34'] })[h] ?? [];
    expect(await hostClass('rebind.example', lookup)).toBe('loopback');
    expect(await hostClass('ok.example', lookup)).toBe('public');
    expect(await hostClass('127.0.0.1', async () => ['8.8.8.8'])).toBe('loopback');
  });

  it('allows a non-public sign-in host only for a non-public upstream', () => {
    expect(signInHostAllowed('public', 'public')).toBe(true);
    expect(signInHostAllowed('public', 'loopback')).toBe(true);
    expect(signInHostAllowed('loopback', 'loopback')).toBe(true);
    expect(signInHostAllowed('private', 'private')).toBe(true);
    for (const c of ['loopback', 'private', 'link-local'] as const) expect(signInHostAllowed(c, 'public')).toBe(false);
  });
});

describe('a public upstream whose metadata names 127.0.0.1 as its sign-in server', () => {
  it('is refused with a sentence before any request reaches 127.0.0.1', async () => {
    const sent: string[] = [];
    const twin: typeof fetch = async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push(url.href);
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
        return Response.json({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['http://127.0.0.1:4999'] });
      return new Response('not found', { status: 404 });
    };
    const refused: string[] = [];
    const lookup = async (h: string) => (h === 'mcp.example.com' ? ['93.184.216.34'] : []);
    const f = guardSignInHosts(twin, 'https://mcp.example.com/mcp', (s) => refused.push(s), lookup);
    const { discoverOAuthServerInfo } = await clientSdk();
    const err = await discoverOAuthServerInfo('https://mcp.example.com/mcp', { fetchFn: f }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignInHostRefused);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((u) => new URL(u).hostname !== 'mcp.example.com')).toEqual([]);
    expect(refused[0]).toMatch(
      /sign-in server the metadata names, http:\/\/127\.0\.0\.1:4999, is a loopback address while the upstream https:\/\/mcp\.example\.com is public; Working Set sent it nothing/,
    );
  });
});

describe("an upstream's own fetch (transports.ts)", () => {
  it("refuses a public upstream's loopback sign-in server the same way", async () => {
    const sent: string[] = [];
    const twin: typeof fetch = async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push(url.href);
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
        return Response.json({ resource: 'https://93.184.216.34/mcp', authorization_servers: ['http://localhost:4999/'] });
      return new Response('not found', { status: 404 });
    };
    const logged: string[] = [];
    const f = upstreamFetch('https://93.184.216.34/mcp', { maxResultBytes: 1 << 20 }, (s) => logged.push(s), twin);
    const { discoverOAuthServerInfo } = await clientSdk();
    await expect(discoverOAuthServerInfo('https://93.184.216.34/mcp', { fetchFn: f })).rejects.toThrow(/Working Set sent it nothing/);
    expect(sent.filter((u) => new URL(u).hostname !== '93.184.216.34')).toEqual([]);
    expect(logged).toHaveLength(1);
  });
});
