// What a person does next about an upstream or its sign-in, in the commands they would run: one pure
// table, so `mws upstream list`, `mws auth status` and `mws doctor` say the same thing.
import type { UpstreamRow } from '../../core/control/api.js';
import { statusWord } from '../../shared/statusWords.js';

type Row = Pick<UpstreamRow, 'vendor' | 'status' | 'needs' | 'auth' | 'lastError' | 'kind'>;

/** The command (or the wait) that moves the upstream on; undefined when it is serving and nothing is to do. */
export function nextStep(u: Row): string | undefined {
  switch (u.status) {
    case 'up':
      return undefined;
    case 'starting':
      return 'wait: it is starting';
    case 'off':
      return `turn it on: mws upstream enable ${u.vendor}`;
    case 'needs-value':
      return `give it a value: mws upstream set ${u.vendor} ${u.needs?.[0] ?? 'KEY'}`;
    case 'needs-sign-in':
      return `${signInWord(u) === 'sign in again' ? 'sign in again' : 'sign in'}: mws login ${u.vendor}`;
    case 'revoked':
      return u.kind === 'http'
        ? `check its credentials: mws upstream edit ${u.vendor} --header Authorization=…`
        : `check its credentials: mws upstream log ${u.vendor}`;
    default:
      return `see why: mws upstream log ${u.vendor}`;
  }
}

/** Signed in, never signed in, or signed in once and lost it (revoked, refresh expired, signed out). */
export type SignInWord = 'signed in' | 'sign in' | 'sign in again';

/**
 * An OAuth upstream's sign-in in the three words the window, tray and CLI use. "Again" when a sign-in
 * that worked stopped working (the core marks it lost), or the error says so.
 */
export function signInWord(u: Pick<Row, 'status' | 'auth' | 'lastError'>): SignInWord {
  if (u.auth?.signedIn && u.status !== 'needs-sign-in') return 'signed in';
  const lost = u.auth?.lost === true || /expired|revoked|invalid_grant/i.test(u.lastError ?? '');
  return lost ? 'sign in again' : 'sign in';
}

/** Whether an upstream signs in with OAuth (it asked, or it is signed in). */
export function usesOAuth(u: Pick<Row, 'auth' | 'status'>): boolean {
  return u.auth !== undefined || u.status === 'needs-sign-in';
}

/** Counts of upstreams by their status word ("3 up, 1 down"), the serving ones first. */
export function statusCounts(rows: Array<Pick<UpstreamRow, 'status' | 'needs'>>): string {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const w = r.status === 'needs-value' ? 'needs a value' : statusWord(r);
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const order = (w: string) => (w === 'up' ? 0 : 1);
  return (
    [...counts.entries()]
      .sort((a, b) => order(a[0]) - order(b[0]))
      .map(([w, n]) => `${n} ${w}`)
      .join(', ') || 'none'
  );
}
