// Values that become HTTP headers hold no control characters: a token from a sign-in server, a header
// in the config, a header value that comes from the secret store. Each is refused with a sentence.
import { describe, expect, it } from 'vitest';
import { UpstreamAuth } from '../../../src-main/core/upstream/oauth/upstreamAuth.js';
import { SignInFlows } from '../../../src-main/core/upstream/oauth/flows.js';
import { MemoryOAuthStore } from '../../../src-main/core/upstream/oauth/store.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { resolveUpstream } from '../../../src-main/core/secrets/refs.js';
import { MemorySecretStore } from '../../../src-main/core/secrets/store.js';
import { tempDir } from '../../helpers/app.js';

const auth = () =>
  new UpstreamAuth({
    vendor: 'x',
    serverUrl: 'https://a/mcp',
    config: {},
    store: new MemoryOAuthStore(),
    flows: new SignInFlows(() => 0),
    redirectUrl: () => 'http://127.0.0.1:1/oauth/callback',
    now: () => 0,
    log: new MemoryLogger(),
  });

describe('a token holding control characters', () => {
  it('is refused with a sentence before it is kept, the earlier token staying', async () => {
    const a = auth();
    await a.saveTokens({ access_token: 'good-token', token_type: 'Bearer' });
    for (const bad of ['ab\u001b[31mcd', 'ab\u0007', 'a b', 'line\r\nSet-Cookie: x=1'])
      await expect(a.saveTokens({ access_token: bad, token_type: 'Bearer' })).rejects.toThrow(/characters a token cannot hold/);
    await expect(a.saveTokens({ access_token: 'ok', token_type: 'Bearer', refresh_token: 'r\u001b' })).rejects.toThrow(/refresh token/);
    expect((await a.tokens())?.access_token).toBe('good-token');
  });
});

describe('header values', () => {
  it('in the config: a line break, NUL or escape is refused, and a name that is not an HTTP token', () => {
    const cfg = (headers: Record<string, string>) => () =>
      validateConfig({ upstreams: { h: { url: 'https://example.com/mcp', headers } } }, tempDir());
    expect(cfg({ Authorization: 'Bearer abc\r\nX-Evil: 1' })).toThrow(/control character/);
    expect(cfg({ Authorization: 'Bearer \u001b[2J' })).toThrow(/control character/);
    expect(cfg({ 'Bad Name': 'x' })).toThrow(/not an HTTP token/);
    expect(cfg({ Authorization: 'Bearer abc\tdef' })).not.toThrow();
  });

  it('from the secret store: refused where it becomes a header, with a sentence naming it', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('upstreams.h.headers.Authorization', 'Bearer abc\u0007');
    const config = validateConfig(
      { upstreams: { h: { url: 'https://example.com/mcp', headers: { Authorization: '${secret:upstreams.h.headers.Authorization}' } } } },
      tempDir(),
    );
    await expect(resolveUpstream('h', config.upstreams.h!, { secrets, env: {} })).rejects.toThrow(
      /header "Authorization" of upstream "h" holds a control character/,
    );
  });
});
