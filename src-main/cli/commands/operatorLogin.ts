// `mws login --operator URL` and `mws logout --operator URL`: a person signs the CLI in to a remote
// Working Set through the team's identity provider, by the device flow (core/operators/deviceSignIn.ts):
// the CLI prints a link and a code, the person confirms them in any browser (on another machine if this
// one has none), and the tokens are kept (core/operators/logins.ts).
import { discoverProvider, openidClient } from '../../core/operators/provider.js';
import { deviceSignIn } from '../../core/operators/deviceSignIn.js';
import { forgetLogin, instanceUrl } from '../../core/operators/logins.js';
import { cliConfig, type ConfigFlags } from '../config.js';
import type { Io } from '../output.js';
import { hasBrowser, LOGIN_WAIT_MS, openBrowser } from './login.js';

export type OperatorLoginFlags = ConfigFlags & { url: string; browser: boolean; waitMs?: number };

export async function runOperatorLogin(io: Io, f: OperatorLoginFlags): Promise<number> {
  const url = instanceUrl(f.url);
  const { config } = await cliConfig(f);
  const login = await deviceSignIn(config.stateDir, url, {
    waitMs: f.waitMs ?? LOGIN_WAIT_MS,
    onLink: async (link, code, waitMs) => {
      io.out(`Sign in to ${url} in a browser (any device):\n\n  ${link}\n\nand check that it shows the code ${code}.\n`);
      if (f.browser && hasBrowser()) await openBrowser(link, io);
      io.out(`Waiting for the sign-in (up to ${Math.max(1, Math.round(waitMs / 60_000))} min; Ctrl-C to give up)…`);
    },
    again: `Run \`mws login --operator ${url}\` again.`,
  });
  io.out(
    `Signed in to ${url}${login.name ? ` as ${login.name} (${login.role})` : ''}. Commands reach it with MWS_REMOTE set, e.g. \`MWS_REMOTE=${url} mws status\`.`,
  );
  return 0;
}

export async function runOperatorLogout(io: Io, f: ConfigFlags & { url: string }): Promise<number> {
  const url = instanceUrl(f.url);
  const { config } = await cliConfig(f);
  const gone = await forgetLogin(config.stateDir, url);
  if (!gone) return (io.out(`Not signed in to ${url}; nothing to do.`), 0);
  // The refresh token is revoked at the provider when it can be; the sign-in is forgotten either way.
  let revoked = false;
  if (gone.refreshToken) {
    try {
      const provider = await discoverProvider(gone.issuer, { clientId: gone.clientId });
      if (provider.serverMetadata().revocation_endpoint) {
        await (await openidClient()).tokenRevocation(provider, gone.refreshToken, { token_type_hint: 'refresh_token' });
        revoked = true;
      }
    } catch {
      // Unreachable or refusing provider: the token is forgotten here and expires there.
    }
  }
  io.out(`Signed out of ${url}${revoked ? '; the identity provider revoked the sign-in' : ''}.`);
  return 0;
}
