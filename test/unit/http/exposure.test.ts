// The start-up decision for a listener beyond loopback (http/exposure.ts): each refusal and its sentence,
// and the Host/Origin/X-Forwarded-* guard in network mode (http/guard.ts).
import { describe, expect, it } from 'vitest';
import { decideExposure, proxyList, type Exposure } from '../../../src-main/core/http/exposure.js';
import { refuseForeign } from '../../../src-main/core/http/guard.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';

const TOKEN_A = 'mws_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const TOKEN_B = 'mws_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

const config = (listen: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  validateConfig(
    {
      listen,
      defaultAgent: false,
      agents: [
        { id: 'a', token: TOKEN_A },
        { id: 'b', token: TOKEN_B },
      ],
      ...more,
    },
    '/tmp/mws-state',
  );
const TLS = { cert: '/x/cert.pem', key: '/x/key.pem' };

/** A config as validated on loopback, then moved to `host`: what a caller that skips the schema (or a config the schema let through) gives. */
const moved = (host: string, listen: Record<string, unknown> = {}) => {
  const c = config({ ...listen, host: '127.0.0.1' });
  return { ...c, listen: { ...c.listen, host } };
};

function refusal(listen: Record<string, unknown>, more?: Record<string, unknown>): string {
  const d = decideExposure(config(listen, more));
  if (d.ok) throw new Error('expected a refusal');
  return d.message;
}
function exposure(listen: Record<string, unknown>, more?: Record<string, unknown>): Exposure {
  const d = decideExposure(config(listen, more));
  if (!d.ok) throw new Error(d.message);
  return d.exposure;
}

describe('decideExposure', () => {
  it('loopback with nothing more is the single-user listener, tokens or not', () => {
    expect(decideExposure(validateConfig({}, '/tmp/s'))).toMatchObject({ ok: true, exposure: { network: false } });
    expect(exposure({ host: '::1' }).network).toBe(false);
  });

  it('refuses a non-loopback host with neither TLS nor a proxy, naming both ways', () => {
    expect(() => config({ host: '0.0.0.0' })).toThrow(/"listen\.host" must be a loopback address.*"listen\.tls".*"listen\.publicUrl"/);
    const d = decideExposure(moved('0.0.0.0'));
    const m = d.ok ? '' : d.message;
    expect(m).toContain('in the clear');
    expect(m).toContain('"listen.tls"');
    expect(m).toContain('"listen.publicUrl" and "listen.trustedProxies"');
  });

  it('refuses an agent without a token, naming it and the command', () => {
    const m = refusal({ host: '0.0.0.0', tls: TLS }, { agents: [{ id: 'a', token: TOKEN_A }, { id: 'c' }] });
    expect(m).toContain('"c" has no token');
    expect(m).toContain('mws agent token c');
  });

  it('refuses the default agent (served at /mcp) without a token, and says how to switch it off', () => {
    const m = refusal({ host: '0.0.0.0', tls: TLS }, { defaultAgent: true });
    expect(m).toContain('"default" has no token');
    expect(m).toContain('"defaultAgent": false');
  });

  it('checks tokens even on loopback once TLS or a proxy is asked for (network mode)', () => {
    expect(refusal({ host: '127.0.0.2', tls: TLS }, { agents: [{ id: 'c' }] })).toContain('"c" has no token');
  });

  it('refuses publicUrl without trusted proxies (and no TLS)', () => {
    expect(refusal({ host: '0.0.0.0', publicUrl: 'https://mws.example.com' })).toContain('"listen.trustedProxies" nor "listen.tls"');
  });

  it('refuses trusted proxies without publicUrl', () => {
    const d = decideExposure(moved('0.0.0.0', { trustedProxies: ['10.0.0.5'] }));
    expect(!d.ok && d.message).toContain('"listen.publicUrl" is not');
  });

  it('refuses a trusted proxy that is no address or CIDR', () => {
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/8', '::1/200']) {
      expect(refusal({ host: '0.0.0.0', publicUrl: 'https://m.example', trustedProxies: [bad] })).toContain(JSON.stringify(bad));
    }
  });

  it('the schema refuses a publicUrl that is not an https origin', () => {
    expect(() => config({ host: '0.0.0.0', publicUrl: 'http://mws.example.com', trustedProxies: ['10.0.0.5'] })).toThrow(/https/);
  });

  it('accepts TLS, and a proxy with its public origin and trusted addresses', () => {
    expect(exposure({ host: '0.0.0.0', tls: TLS })).toMatchObject({ network: true, tls: TLS });
    const e = exposure({ host: '0.0.0.0', publicUrl: 'https://MWS.example.com/', trustedProxies: ['10.0.0.0/8', '::1'] });
    expect(e.publicOrigin).toBe('https://mws.example.com');
    expect(e.trusted('10.1.2.3')).toBe(true);
    expect(e.trusted('::ffff:10.1.2.3')).toBe(true);
    expect(e.trusted('::1')).toBe(true);
    expect(e.trusted('11.0.0.1')).toBe(false);
    expect(e.trusted(undefined)).toBe(false);
  });

  it('proxyList parses addresses and CIDRs of both families', () => {
    expect('list' in proxyList(['127.0.0.1', '192.168.0.0/16', 'fd00::/8'])).toBe(true);
  });
});

describe('the guard in network mode', () => {
  const PORT = 8443;
  const proxied = exposure({ host: '10.0.0.3', port: PORT, publicUrl: 'https://mws.example.com', trustedProxies: ['10.0.0.5'] });
  const direct = exposure({ host: '10.0.0.3', port: PORT, tls: TLS });
  const ask = (e: Exposure, headers: Record<string, string>, remote = '10.9.9.9') =>
    refuseForeign('POST', headers, PORT, '/mcp/a', { exposure: e, listenHost: '10.0.0.3', remote });

  it('accepts the public host, the listen host:port and loopback names', () => {
    expect(ask(proxied, { host: 'mws.example.com' })).toBeUndefined();
    expect(ask(proxied, { host: 'mws.example.com:443' })).toBeUndefined();
    expect(ask(direct, { host: '10.0.0.3:8443', origin: 'https://10.0.0.3:8443' })).toBeUndefined();
    expect(ask(direct, { host: '127.0.0.1:8443' })).toBeUndefined();
  });

  it('refuses another Host and another Origin', () => {
    expect(ask(direct, { host: 'evil.example:8443' })?.status).toBe(403);
    expect(ask(direct, { host: '10.0.0.3:8443', origin: 'http://10.0.0.3:8443' })?.status).toBe(403);
    expect(ask(proxied, { host: 'mws.example.com', origin: 'https://evil.example' })?.status).toBe(403);
  });

  it('refuses X-Forwarded-* from an address that is not a trusted proxy', () => {
    for (const h of ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded']) {
      const r = ask(proxied, { host: 'mws.example.com', [h]: 'mws.example.com' });
      expect(r?.status).toBe(403);
      expect(r?.message).toContain('listen.trustedProxies');
    }
  });

  it('believes X-Forwarded-Host from a trusted proxy, and checks it as the Host', () => {
    expect(ask(proxied, { host: '10.0.0.3:8443', 'x-forwarded-host': 'mws.example.com' }, '10.0.0.5')).toBeUndefined();
    expect(ask(proxied, { host: '10.0.0.3:8443', 'x-forwarded-host': 'evil.example' }, '10.0.0.5')?.status).toBe(403);
  });

  it('on loopback (no network side) forwarded headers change nothing, as before', () => {
    expect(refuseForeign('POST', { host: '127.0.0.1:8443', 'x-forwarded-host': 'evil.example' }, PORT)).toBeUndefined();
    expect(refuseForeign('POST', { host: 'mws.example.com' }, PORT)?.status).toBe(403);
  });
});
