// The app's OAuth side: one store and one set of sign-ins under way for every upstream, and the
// UpstreamAuth each HTTP upstream's connection signs in with.
import type { HttpUpstreamConfig } from '../../config/schema.js';
import type { Logger } from '../../log.js';
import { SignInFlows } from './flows.js';
import type { OAuthStore } from './store.js';
import { UpstreamAuth } from './upstreamAuth.js';

export const OAUTH_CALLBACK_PATH = '/oauth/callback';

export type OAuthUpstreamsOptions = {
  store: OAuthStore;
  now: () => number;
  log: Logger;
  /** The listener's base URL (known once it listens): the redirect URI is its /oauth/callback. */
  baseUrl: () => string;
  onSignInNeeded?: (vendor: string) => void;
};

export class OAuthUpstreams {
  readonly flows: SignInFlows;

  constructor(private readonly opts: OAuthUpstreamsOptions) {
    this.flows = new SignInFlows(opts.now);
  }

  get store(): OAuthStore {
    return this.opts.store;
  }

  /** The OAuth client of one HTTP upstream; undefined when its config says never to sign in. */
  for(vendor: string, cfg: HttpUpstreamConfig): UpstreamAuth | undefined {
    if (cfg.oauth === false) return undefined;
    return new UpstreamAuth({
      vendor,
      serverUrl: cfg.url,
      config: cfg.oauth ?? {},
      store: this.opts.store,
      flows: this.flows,
      redirectUrl: () => `${this.opts.baseUrl()}${OAUTH_CALLBACK_PATH}`,
      now: this.opts.now,
      log: this.opts.log,
      ...(this.opts.onSignInNeeded ? { onSignInNeeded: this.opts.onSignInNeeded } : {}),
    });
  }
}
