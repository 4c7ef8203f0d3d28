// `mws login <upstream>` and `mws logout <upstream>`: signing in to an OAuth upstream headless. The
// link printed lands on the instance's own /oauth/callback; with no instance running, this command
// runs one (listening) until the sign-in is done.
import { MwsError } from '../../core/errors.js';
import { openableUrl } from '../../shared/openableUrl.js';
import type { ControlApi } from '../../core/control/api.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import { openControl } from '../instance.js';
import type { Io } from '../output.js';

/** How long `mws login` waits for the browser to come back (a sign-in link is good this long too). */
export const LOGIN_WAIT_MS = 15 * 60 * 1000;
const POLL_MS = 500;

export type LoginFlags = ConfigFlags & { vendor: string | undefined; browser: boolean; reset?: boolean; waitMs?: number };

function vendorOf(v: string | undefined, cmd: string): string {
  if (!v) throw new MwsError('usage', `Name the upstream: \`mws ${cmd} <upstream>\`, with a name from the config's "upstreams".`);
  return v;
}

/** A browser is there to open: a desktop session (not over SSH, not in a bare Linux console). */
export function hasBrowser(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  if (env.SSH_CONNECTION || env.SSH_TTY) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

export async function openBrowser(url: string, io: Io): Promise<void> {
  if (!openableUrl(url).ok) return;
  try {
    const { default: open } = await import('open');
    const child = await open(url);
    child.on('error', () => io.err('Could not open a browser; open the link above yourself.'));
    child.unref();
  } catch {
    io.err('Could not open a browser; open the link above yourself.');
  }
}

export async function runLogin(io: Io, f: LoginFlags): Promise<number> {
  const vendor = vendorOf(f.vendor, 'login');
  const { config } = await cliConfig(f);
  if (!Object.hasOwn(config.upstreams, vendor))
    throw new MwsError('not_found', `No upstream "${vendor}" in the config. Known: ${Object.keys(config.upstreams).join(', ') || 'none'}.`);
  const c = await openControl(config, 'mws login', { listen: true });
  try {
    const first = await (f.reset ? c.api.resetSignIn({ vendor }) : c.api.signIn({ vendor }));
    if (first.status === 'signed-in') return (io.out(`Already signed in to "${vendor}". \`mws logout ${vendor}\` signs out.`), 0);
    if (first.status === 'not-needed') return (io.out(`"${vendor}" answers without signing in; nothing to do.`), 0);
    // The sign-in server chose this link: it is printed and opened only if it is https: (or http: to loopback).
    const link = openableUrl(first.url);
    if (!link.ok)
      throw new MwsError(
        'upstream_unavailable',
        `The sign-in link for "${vendor}" was not opened or shown: ${link.reason} Check the upstream's URL, or ask its operator to fix its sign-in server.`,
        { vendor },
      );
    io.out(`Sign in to "${vendor}" in your browser:\n\n  ${link.url}\n`);
    if (f.browser && hasBrowser()) await openBrowser(link.url, io);
    io.out(`Waiting for the sign-in to finish (up to ${Math.round((f.waitMs ?? LOGIN_WAIT_MS) / 60_000)} min; Ctrl-C to give up)…`);
    const account = await waitSignedIn(c.api, vendor, f.waitMs ?? LOGIN_WAIT_MS);
    io.out(`Signed in to "${vendor}"${account ? ` as ${account}` : ''}.`);
    return 0;
  } finally {
    await c.close();
  }
}

/** Polls the status (every wait has its deadline) until the upstream is up and signed in. */
async function waitSignedIn(api: ControlApi, vendor: string, ms: number): Promise<string | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const u = (await api.status({})).upstreams.find((x) => x.vendor === vendor);
    if (u?.status === 'up' && u.auth?.signedIn) return u.auth.account;
    if (u && u.status === 'needs-sign-in' && u.auth && !u.auth.waiting) {
      throw new MwsError(
        'upstream_needs_sign_in',
        `The sign-in to "${vendor}" did not complete (${u.lastError ?? 'the link was used or refused'}). Run \`mws login ${vendor}\` again.`,
        { vendor },
      );
    }
    if (Date.now() >= end)
      throw new MwsError(
        'upstream_needs_sign_in',
        `No sign-in to "${vendor}" came back within ${Math.round(ms / 1000)} s. Run \`mws login ${vendor}\` again.`,
        { vendor },
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export async function runLogout(io: Io, f: ConfigFlags & { vendor: string | undefined }): Promise<number> {
  const vendor = vendorOf(f.vendor, 'logout');
  const { config } = await cliConfig(f);
  const c = await openControl(config, 'mws logout');
  try {
    const r = await c.api.signOut({ vendor });
    io.out(
      r.revoked
        ? `Signed out of "${vendor}"; the server revoked the tokens.`
        : `Signed out of "${vendor}"; the tokens were forgotten here (the server offers no revocation, or did not answer).`,
    );
    return 0;
  } finally {
    await c.close();
  }
}
