import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../src-main/core/secrets/store.js';
import { SecretOAuthStore } from '../../../src-main/core/upstream/oauth/secretOAuthStore.js';

describe('OAuth state in the secret store (the desktop keeps it sealed by the keychain)', () => {
  it("keeps one record per upstream under that upstream's own names, and forgets it", async () => {
    const secrets = new MemorySecretStore();
    const store = new SecretOAuthStore(secrets);
    await store.set('linear', {
      serverUrl: 'https://mcp.example/mcp',
      tokens: { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' },
    });
    expect(await secrets.list()).toEqual(['upstreams.linear.oauth']);
    expect((await store.get('linear'))?.tokens?.refresh_token).toBe('rt-1');
    expect(await store.get('github')).toBeUndefined();
    await store.delete('linear');
    expect(await secrets.list()).toEqual([]);
  });

  it('reads a damaged value as never signed in', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set('upstreams.x.oauth', '{not json');
    expect(await new SecretOAuthStore(secrets).get('x')).toBeUndefined();
  });
});
