// The words an upstream's status is shown with, the same in `mws`, the report, the tray and the window
// (no Node imports: the renderer uses it). `needs-value` names what to fill in: "needs a value: KEY".
export type StatusLike = {
  status: string;
  needs?: readonly string[] | undefined;
  /** `lost`: it was signed in and the server stopped taking the sign-in. */
  auth?: { signedIn: boolean; lost?: boolean } | undefined;
};

/**
 * "needs sign-in" (never signed in) or "needs sign-in again" (the server revoked it or the refresh
 * expired): a person knows from the words whether something changed. Signed in is said beside "up"
 * (the window's "Signed in as …", `mws auth status`).
 */
export function statusWord(u: StatusLike): string {
  if (u.status === 'needs-value') return u.needs?.length ? `needs a value: ${u.needs.join(', ')}` : 'needs a value';
  if (u.status === 'needs-sign-in') return u.auth?.lost ? 'needs sign-in again' : 'needs sign-in';
  return u.status;
}

/** The status after a subject, as a sentence says it: "is up", "is down", "needs sign-in", "needs a value: KEY". */
export function statusPhrase(u: StatusLike): string {
  return waitsForUser(u) ? statusWord(u) : `is ${statusWord(u)}`;
}

/** Whether the user must act before the upstream can start (a value, a sign-in): not "down", and never "up". */
export function waitsForUser(u: StatusLike): boolean {
  return u.status === 'needs-value' || u.status === 'needs-sign-in';
}
