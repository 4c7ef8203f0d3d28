// A database that fails is an answer: every error of the PostgreSQL adapter becomes one sentence with
// a code, `unavailable` (503) when the database cannot be reached or did not answer in time.
import { MwsError, errorMessage } from '../../errors.js';

/** Connection-level SQLSTATE classes and codes: the database is not there, not the statement wrong. */
const DOWN_STATES = /^(08|53|57P0[1-3]|57014|40001|40P01)/;
const DOWN_MESSAGES =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|timeout|terminat|Connection ended|not queryable|Client was closed|Cannot use a pool after calling end/i;

export function isDown(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && DOWN_STATES.test(e.code)) return true;
  return DOWN_MESSAGES.test(errorMessage(err)) || (typeof e?.code === 'string' && DOWN_MESSAGES.test(e.code));
}

/** `what` could not be done: `unavailable` with what to check, or the database's own complaint. */
export function dbError(err: unknown, what: string, where: string): MwsError {
  if (err instanceof MwsError) return err;
  if (isDown(err)) {
    return new MwsError(
      'unavailable',
      `The state database (${where}) cannot be reached now (${errorMessage(err)}), so ${what} was not done and nothing changed. Check that PostgreSQL is up; Working Set goes on with what it knows and reconnects by itself.`,
      { where },
    );
  }
  return new MwsError('state_unwritable', `The state database (${where}) refused ${what}: ${errorMessage(err)}. Nothing changed.`, {
    where,
    ...(typeof (err as { code?: unknown }).code === 'string' ? { sqlstate: (err as { code: string }).code } : {}),
  });
}
