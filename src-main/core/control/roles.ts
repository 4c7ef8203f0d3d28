// What each operator role may call. Operators sign in through the team's identity provider (the
// config's "operators"); the control token and the window's one-time link stay the admin's.
// A method not named here needs admin: a new method is closed until someone decides otherwise.
import type { ControlMethod } from './contract.js';

export type Role = 'admin' | 'approver' | 'viewer';

/** Reading what the instance holds, never changing it nor reading a secret or a client's token. */
const VIEWER: ReadonlySet<ControlMethod> = new Set<ControlMethod>([
  'status',
  'workingSet',
  'history',
  'sweepPreview',
  'pendingApprovals',
  'grants',
  'upstreamTools',
  'search',
  'learnedWords',
  'report',
  'upstreams',
  'settings',
  'upstreamLog',
  'activity',
]);

/** The approvals inbox: answering a waiting call and taking back a grant. */
const APPROVER: ReadonlySet<ControlMethod> = new Set<ControlMethod>(['approve', 'revokeGrant']);

export function mayCall(role: Role, method: ControlMethod): boolean {
  if (role === 'admin') return true;
  if (VIEWER.has(method)) return true;
  return role === 'approver' && APPROVER.has(method);
}

/** The role a token's claim grants: the highest whose values the claim holds. */
export function roleOf(claim: unknown, values: Record<Role, readonly string[]>): Role | undefined {
  const held = Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(' ') : [];
  for (const role of ['admin', 'approver', 'viewer'] as const)
    if (held.some((v) => typeof v === 'string' && values[role].includes(v))) return role;
  return undefined;
}
