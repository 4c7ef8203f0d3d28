// What each operator role may call, and which role a token's claim gives.
import { describe, expect, it } from 'vitest';
import { CONTROL_METHODS } from '../../../src-main/core/control/contract.js';
import { mayCall, roleOf } from '../../../src-main/core/control/roles.js';

describe('operator roles', () => {
  it('admin calls everything; a viewer only reads; an approver also answers approvals', () => {
    for (const m of CONTROL_METHODS) expect(mayCall('admin', m)).toBe(true);
    const viewer = CONTROL_METHODS.filter((m) => mayCall('viewer', m));
    const approver = CONTROL_METHODS.filter((m) => mayCall('approver', m));
    expect(approver.filter((m) => !viewer.includes(m)).sort()).toEqual(['approve', 'revokeGrant']);
    // Nothing that changes state, shows a secret or a client's token, or opens the window is a viewer's.
    for (const m of [
      'promote',
      'demote',
      'updateSettings',
      'saveUpstream',
      'agentToken',
      'clientConfigs',
      'uiLink',
      'secretNames',
      'importScan',
      'signIn',
    ] as const)
      expect(viewer).not.toContain(m);
  });

  it('gives the highest role the claim holds, from an array or a space-separated string', () => {
    const values = { admin: ['mws-admin'], approver: ['mws-approver'], viewer: ['mws-viewer', 'staff'] };
    expect(roleOf(['staff', 'mws-approver'], values)).toBe('approver');
    expect(roleOf('staff mws-admin', values)).toBe('admin');
    expect(roleOf(['other'], values)).toBeUndefined();
    expect(roleOf(undefined, values)).toBeUndefined();
    expect(roleOf({ admin: true }, values)).toBeUndefined();
  });
});
