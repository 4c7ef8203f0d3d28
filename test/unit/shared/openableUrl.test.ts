// The one rule for what may be opened or shown as a sign-in link (shared/openableUrl.ts): a sign-in
// server's metadata chooses that URL, so everything but https: and http: to loopback is refused.
import { describe, expect, it } from 'vitest';
import { OPENABLE_URL_MAX, openableUrl } from '../../../src-main/shared/openableUrl.js';

const refused = (u: unknown) => {
  const r = openableUrl(u);
  expect(r.ok, `${String(u)} should be refused`).toBe(false);
  return r.ok ? '' : r.reason;
};

describe('openableUrl', () => {
  it('opens https: anywhere and http: to this machine, as parsed', () => {
    for (const [raw, href] of [
      ['https://auth.example.com/authorize?state=x', 'https://auth.example.com/authorize?state=x'],
      ['HTTPS://Auth.Example.com/a', 'https://auth.example.com/a'],
      ['http://127.0.0.1:4484/oauth/callback', 'http://127.0.0.1:4484/oauth/callback'],
      ['http://localhost:9/a', 'http://localhost:9/a'],
      ['http://[::1]:9/a', 'http://[::1]:9/a'],
      ['http://127.1.2.3/a', 'http://127.1.2.3/a'],
      // The parser's own forms of 127.0.0.1 are still this machine.
      ['http://2130706433/a', 'http://127.0.0.1/a'],
      ['https://bücher.example/a', 'https://xn--bcher-kva.example/a'],
    ]) {
      expect(openableUrl(raw)).toEqual({ ok: true, url: href });
    }
  });

  it('refuses other schemes with a sentence naming the scheme', () => {
    expect(refused('file:///home/u/.local/share/applications/evil.desktop')).toMatch(/a file: URL; only https: links/);
    expect(refused('javascript:alert(1)')).toMatch(/javascript:/);
    expect(refused('data:text/html,<script>alert(1)</script>')).toMatch(/data:/);
    expect(refused('vbscript:msgbox')).toMatch(/vbscript:/);
    expect(refused('smb://evil.example/share')).toMatch(/smb:/);
    expect(refused('ftp://evil.example/x')).toMatch(/ftp:/);
    expect(refused('mailto:x@example.com')).toMatch(/mailto:/);
    expect(refused('/relative/path')).toMatch(/not a valid URL/);
    expect(refused('')).toMatch(/empty/);
    expect(refused(undefined)).toMatch(/empty/);
  });

  it('refuses plain http: to anything but loopback, however it is spelt', () => {
    for (const u of [
      'http://auth.example.com/authorize',
      'http://127.0.0.1.evil.com/a',
      'http://localhost.evil.com/a',
      'http://evil.com#@127.0.0.1/',
      'http://0.0.0.0/a',
      'http://10.0.0.1/a',
      'http://[::ffff:10.0.0.1]/a',
      // A Cyrillic "о" in localhost is another host (xn--…), not this machine.
      'http://lоcalhost/a',
    ])
      expect(refused(u)).toMatch(/plain http: to another machine/);
  });

  it('refuses user info before the host (https://trusted@evil) and control characters', () => {
    expect(refused('https://accounts.example.com@evil.example/a')).toMatch(/user name or password/);
    expect(refused('https://u:p@auth.example.com/a')).toMatch(/user name or password/);
    expect(refused('http://127.0.0.1@evil.com/')).toMatch(/plain http: to another machine/);
    expect(refused('https://auth.example.com/a\u0007')).toMatch(/control characters/);
    expect(refused('java\tscript:alert(1)')).toMatch(/control characters/);
    expect(refused('https://auth.example.com/\n')).toMatch(/control characters/);
  });

  it('refuses a link longer than any real one', () => {
    expect(refused(`https://a.example/?q=${'a'.repeat(OPENABLE_URL_MAX)}`)).toMatch(/characters long/);
  });
});
