// OAuth state kept in the secret store (one value per upstream, `upstreams.<vendor>.oauth`): the
// desktop app's store is sealed by the OS keychain, so its tokens are too. Headless runs keep the
// 0600 oauth.json (store.ts).
import type { SecretStore } from '../../secrets/store.js';
import type { OAuthRecord, OAuthStore } from './store.js';

const nameOf = (vendor: string) => `upstreams.${vendor}.oauth`;

export class SecretOAuthStore implements OAuthStore {
  constructor(private readonly secrets: SecretStore) {}

  async get(vendor: string): Promise<OAuthRecord | undefined> {
    const text = await this.secrets.get(nameOf(vendor));
    if (text === undefined) return undefined;
    try {
      const v = JSON.parse(text) as OAuthRecord;
      return typeof v === 'object' && v !== null && typeof v.serverUrl === 'string' ? v : undefined;
    } catch {
      return undefined; // unreadable: as if never signed in (the next sign-in replaces it)
    }
  }

  async set(vendor: string, value: OAuthRecord): Promise<void> {
    await this.secrets.set(nameOf(vendor), JSON.stringify(value));
  }

  async delete(vendor: string): Promise<void> {
    await this.secrets.delete(nameOf(vendor));
  }
}
