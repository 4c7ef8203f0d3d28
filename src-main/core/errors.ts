// Local errors carry a stable string code, a sentence a person can act on, and data for machines.

export type ErrorCode =
  | 'config_invalid'
  | 'config_unreadable'
  | 'listen_refused'
  | 'tool_not_found'
  | 'arguments_invalid'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_starting'
  /** An OAuth upstream waits for the user to sign in (or sign in again). */
  | 'upstream_needs_sign_in'
  | 'agent_not_found'
  | 'state_damaged'
  | 'state_locked'
  | 'demo_mode'
  | 'state_unusable'
  /** A state change could not be saved because the disk is full; it was not applied. */
  | 'disk_full'
  /** A state change could not be saved (read-only folder, permissions); it was not applied. */
  | 'state_unwritable'
  | 'instance_unreachable'
  /** Something named does not exist (an upstream, a control method). */
  | 'not_found'
  | 'method_not_found'
  /** The call is well formed but the current state forbids it (an id taken, nothing waiting). */
  | 'conflict'
  /** Secrets are sealed by a keychain this process cannot open (the desktop app's). */
  | 'secrets_locked'
  /** An upstream waits for a value the user has not given yet (`${input:…}`, an unset variable). */
  | 'upstream_needs_value'
  /** An upstream of that name exists and the call did not say it replaces it. */
  | 'upstream_exists'
  /** The shared state (the database) cannot be reached now: a state change was refused, nothing changed. */
  | 'unavailable'
  /** The sealing key of secrets and sign-ins is missing, or is not the one they were sealed with. */
  | 'state_key'
  /** Signing in through the team's identity provider did not complete (refused, expired, or no answer). */
  | 'sign_in_failed'
  | 'usage';

export class MwsError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'MwsError';
    this.code = code;
    this.data = data;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
