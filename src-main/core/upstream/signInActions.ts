// The sign-in actions of an upstream as the catalog offers them (sign in, sign out, reset), with the
// sentence for a name that is no upstream and for an upstream that does not sign in with OAuth.
import { MwsError } from '../errors.js';
import type { Upstream } from './types.js';

export type SignInAction = 'signIn' | 'signOut' | 'resetSignIn';
export type SignInAnswer<K extends SignInAction> = Awaited<ReturnType<NonNullable<Upstream[K]>>>;

/** Why an upstream without OAuth cannot do the action: the catalog's and the connection's sentence. */
export const CANNOT: Record<SignInAction, string> = {
  signIn: 'does not sign in with OAuth',
  signOut: 'does not sign in with OAuth, so there is nothing to sign out of',
  resetSignIn: 'does not sign in with OAuth, so there is no sign-in to reset',
};

export function runSignIn<K extends SignInAction>(vendor: string, u: Upstream | undefined, action: K): Promise<SignInAnswer<K>> {
  if (!u) throw new MwsError('not_found', `No upstream "${vendor}" is configured; add it under "upstreams" in the config.`, { vendor });
  const run = u[action]?.bind(u) as (() => Promise<SignInAnswer<K>>) | undefined;
  if (!run) throw new MwsError('conflict', `Upstream "${vendor}" ${CANNOT[action]}.`, { vendor });
  return run();
}
