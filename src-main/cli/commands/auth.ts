// `mws auth status`: each upstream that signs in with OAuth — signed in (as whom, until when), never
// signed in, or signed in once and lost it — with the command that fixes it.
import { cliConfig, type ConfigFlags } from '../config.js';
import { withControl } from '../instance.js';
import type { Io } from '../output.js';
import { table } from '../table.js';
import { signInWord, usesOAuth } from '../daily/nextStep.js';
import type { UpstreamRow } from '../../core/control/api.js';

export type AuthRow = {
  /** The upstream's name (its vendor), as `mws auth --json` shows it. */
  upstream: string;
  state: 'signed in' | 'sign in' | 'sign in again';
  account: string | null;
  /** When the access token expires (ISO), when the server said. */
  expiresAt: string | null;
  /** It renews itself at expiry, without asking the user. */
  refreshable: boolean;
  action: string | null;
};

export function authRows(rows: UpstreamRow[]): AuthRow[] {
  return rows.filter(usesOAuth).map((u) => {
    const state = signInWord(u);
    return {
      upstream: u.vendor,
      state,
      account: u.auth?.account ?? null,
      expiresAt: state === 'signed in' ? (u.auth?.expiresAt ?? null) : null,
      refreshable: u.auth?.refreshable === true,
      action: state === 'signed in' ? null : `mws login ${u.vendor}`,
    };
  });
}

function expiry(r: AuthRow, now: number): string | null {
  if (!r.expiresAt) return null;
  const left = Date.parse(r.expiresAt) - now;
  // The view is taken at connect time; a token that renews itself was renewed on its next use since.
  if (left <= 0 && r.refreshable) return 'renews itself on use';
  const when = left <= 0 ? 'expired' : left < 90 * 60_000 ? `in ${Math.ceil(left / 60_000)} min` : `in ${Math.round(left / 3_600_000)} h`;
  return `${when}${r.refreshable ? ' (renews itself)' : ''}`;
}

export async function runAuthStatus(io: Io, f: ConfigFlags & { json: boolean }): Promise<number> {
  const { config } = await cliConfig(f);
  return withControl(config, async ({ api }) => {
    const rows = authRows(await api.upstreams({}));
    if (f.json) {
      io.out(JSON.stringify(rows));
      return 0;
    }
    if (!rows.length) {
      io.out('No upstream signs in with OAuth.');
      return 0;
    }
    const now = Date.now();
    io.out(
      table(
        ['upstream', 'sign-in', 'account', 'token expires', 'next step'],
        rows.map((r) => [r.upstream, r.state, r.account, expiry(r, now), r.action]),
      ),
    );
    return 0;
  });
}
