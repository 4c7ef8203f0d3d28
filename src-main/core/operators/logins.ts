// The sign-ins `mws login --operator URL` keeps, one per instance URL: the provider's tokens for that
// instance's /control, in the state folder (operator-logins.json, mode 0600, written atomically). A
// command run with MWS_REMOTE=URL talks to that instance with them, refreshing a token about to expire.
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { isLoopbackHost } from '../config/configSchema.js';
import { MwsError } from '../errors.js';
import { writeFileAtomicSynced } from '../store/atomicJson.js';
import type * as oidc from 'openid-client';
import { describe, discoverProvider, openidClient } from './provider.js';

export const LOGINS_FILE = 'operator-logins.json';
/** A token this close to its end is refreshed before a command uses it. */
const REFRESH_AHEAD_MS = 60_000;

export type OperatorLogin = {
  url: string;
  issuer: string;
  clientId: string;
  /** The audience the token names: the instance's /control. */
  resource: string;
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms; 0 when the provider did not say. */
  expiresAt: number;
  name?: string;
  role?: string;
};

/**
 * An instance's URL as the key of its sign-in: its origin and path, no trailing slash. Tokens travel to
 * it, so it must be https (plain http only to this machine).
 */
export function instanceUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new MwsError('usage', `"${raw.slice(0, 200)}" is not a URL; give the instance's address, such as https://mws.example.com.`);
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopbackHost(u.hostname)))
    throw new MwsError(
      'usage',
      `${u.origin} is not https: a sign-in token would cross the network in the clear. Use the instance's https address (plain http only to this machine).`,
    );
  if (u.username || u.password || u.search || u.hash)
    throw new MwsError('usage', "The instance's URL must not carry a user, a query or a fragment; give its address only.");
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export async function readLogins(stateDir: string): Promise<Record<string, OperatorLogin>> {
  let text: string;
  try {
    text = await readFile(join(stateDir, LOGINS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, OperatorLogin>) : {};
  } catch {
    // A damaged file holds nothing usable: the person signs in again (and the next save replaces it).
    return {};
  }
}

export async function saveLogin(stateDir: string, login: OperatorLogin): Promise<void> {
  const all = await readLogins(stateDir);
  all[login.url] = login;
  await writeFileAtomicSynced(join(stateDir, LOGINS_FILE), `${JSON.stringify(all, null, 2)}\n`);
}

/** Forgets the sign-in to `url`; answers what was forgotten. */
export async function forgetLogin(stateDir: string, url: string): Promise<OperatorLogin | undefined> {
  const all = await readLogins(stateDir);
  const gone = all[url];
  if (!gone) return undefined;
  delete all[url];
  await writeFileAtomicSynced(join(stateDir, LOGINS_FILE), `${JSON.stringify(all, null, 2)}\n`);
  return gone;
}

export function expiresAtOf(expiresIn: number | undefined, now = Date.now()): number {
  return typeof expiresIn === 'number' && expiresIn > 0 ? now + expiresIn * 1000 : 0;
}

/** Refreshes under way, one per sign-in: a refresh token is spent once (providers rotate it), so two at once would lose the sign-in. */
const refreshing = new Map<string, Promise<string>>();

/** A current access token for `url`: the stored one, or a refreshed one when it is about to expire. */
export async function operatorToken(stateDir: string, url: string): Promise<string> {
  const key = `${stateDir}\n${url}`;
  const under = refreshing.get(key);
  if (under) return under;
  const login = (await readLogins(stateDir))[url];
  if (!login) throw new MwsError('sign_in_failed', `You are not signed in to ${url}. Run \`mws login --operator ${url}\` first.`, { url });
  if (!login.expiresAt || login.expiresAt - REFRESH_AHEAD_MS > Date.now()) return login.accessToken;
  const { refreshToken } = login;
  if (!refreshToken)
    throw new MwsError('sign_in_failed', `Your sign-in to ${url} has expired. Run \`mws login --operator ${url}\` again.`, { url });
  // A caller that read the file while another refresh began joins it.
  const joined = refreshing.get(key);
  if (joined) return joined;
  const p = refresh(stateDir, { ...login, refreshToken }).finally(() => refreshing.delete(key));
  refreshing.set(key, p);
  return p;
}

async function refresh(stateDir: string, login: OperatorLogin & { refreshToken: string }): Promise<string> {
  const { url } = login;
  const provider = await discoverProvider(login.issuer, { clientId: login.clientId });
  let tokens: oidc.TokenEndpointResponse;
  try {
    tokens = await (await openidClient()).refreshTokenGrant(provider, login.refreshToken, { resource: login.resource });
  } catch (err) {
    // Another process (the CLI beside the desktop app) may have renewed it first: its token is as good.
    const now = (await readLogins(stateDir))[url];
    if (now && now.refreshToken !== login.refreshToken && now.expiresAt - REFRESH_AHEAD_MS > Date.now()) return now.accessToken;
    throw new MwsError(
      'sign_in_failed',
      `Your sign-in to ${url} has expired and the identity provider would not renew it (${describe(err)}). Run \`mws login --operator ${url}\` again.`,
      { url },
    );
  }
  const renewed: OperatorLogin = {
    ...login,
    accessToken: tokens.access_token,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    expiresAt: expiresAtOf(tokens.expires_in),
  };
  await saveLogin(stateDir, renewed);
  return renewed.accessToken;
}
