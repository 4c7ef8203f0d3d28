// refuseMovedSecrets: which edits would carry a saved secret to another server than its own.
import { describe, expect, it } from 'vitest';
import { MASK, refuseMovedSecrets, upstreamJson } from '../../../src-main/core/control/upstreamConfig.js';
import type { UpstreamInput } from '../../../src-main/core/control/api.js';

/** `vendor` null: a test of a new upstream, named by no saved one. */
const check =
  (input: UpstreamInput, saved: unknown, vendor: string | null = 'pg') =>
  () =>
    refuseMovedSecrets(vendor ?? undefined, input, saved, upstreamJson(input, saved));

describe('a saved secret stays with its server', () => {
  const stdio = { command: 'pg-mcp', args: ['--password', 'hunter2', '--host=db'], env: { PGPASSWORD: 'hunter2' } };

  it('refuses a new stdio command that would get the masked env value or argument', () => {
    expect(check({ command: 'evil', env: { PGPASSWORD: MASK } }, stdio)).toThrow(/variable PGPASSWORD would not be sent/);
    expect(check({ command: 'evil', args: ['--password', MASK], env: {} }, stdio)).toThrow(/argument 2 would not be sent/);
    // Left out, env is kept from the saved upstream: refused too.
    expect(check({ command: 'evil' }, stdio)).toThrow(/variable PGPASSWORD/);
  });

  it('lets the same command keep them, a new command take values typed again, and a new upstream anything', () => {
    expect(check({ command: 'pg-mcp', args: ['--password', MASK], env: { PGPASSWORD: MASK } }, stdio)).not.toThrow();
    expect(check({ command: 'evil', args: ['--password', 'typed'], env: { PGPASSWORD: 'typed' } }, stdio)).not.toThrow();
    expect(check({ command: 'evil', env: { PGPASSWORD: MASK } }, undefined)).not.toThrow();
    expect(check({ command: 'evil', env: { PGPASSWORD: MASK } }, stdio, null)).not.toThrow();
  });

  it('compares HTTP origins: another path keeps the secret, another port or scheme does not', () => {
    const saved = { url: 'https://api.example.com/mcp', headers: { Authorization: '${secret:upstreams.pg.headers.Authorization}' } };
    expect(check({ url: 'https://API.example.com:443/v2/mcp', headers: { Authorization: MASK } }, saved)).not.toThrow();
    expect(check({ url: 'https://api.example.com:8443/mcp', headers: { Authorization: MASK } }, saved)).toThrow(/header Authorization/);
    expect(check({ url: 'http://api.example.com/mcp', headers: { Authorization: MASK } }, saved)).toThrow(/header Authorization/);
    // A reference to the upstream's own secret or input, typed in, is the saved secret too.
    expect(check({ url: 'https://evil.example/mcp', headers: { X: '${input:token}' } }, saved)).toThrow(/header X/);
    expect(check({ url: 'https://evil.example/mcp?k=${secret:upstreams.pg.env.K}', headers: {} }, saved)).toThrow(/the URL/);
    // Switching kind (HTTP → stdio) is a new server as well.
    expect(check({ command: 'x', env: { A: '${secret:upstreams.pg.headers.Authorization}' } }, saved)).toThrow(/variable A/);
  });
});
