// A state change that could not be saved: the words and code every surface answers with. A full
// disk is the common case (ENOSPC, or EDQUOT past a quota); the change is rolled back by its caller,
// so the answer can say plainly that nothing changed.
import { MwsError, errorMessage } from '../errors.js';

const FULL = new Set(['ENOSPC', 'EDQUOT']);
/** What a Node system error carries (no Node types here: the window's code reads this module too). */
type SystemError = { code?: string; path?: string };

/** The path a system error names, if any. */
export function errorPath(err: unknown): string | undefined {
  const p = (err as SystemError | null)?.path;
  return typeof p === 'string' ? p : undefined;
}

export function isDiskFull(err: unknown): boolean {
  return FULL.has((err as SystemError | null)?.code ?? '');
}

/**
 * `what` could not be saved: a `disk_full` error when the disk is full, else `state_unwritable`
 * (read-only folder, permissions), each one sentence saying nothing changed and what to do.
 */
export function saveFailed(err: unknown, what: string, dir: string): MwsError {
  if (err instanceof MwsError) return err;
  const code = (err as SystemError | null)?.code;
  if (isDiskFull(err)) {
    return new MwsError(
      'disk_full',
      `The disk is full: ${what} could not be saved in ${dir}, so nothing changed. Free some space there and try again.`,
      { dir, errno: code },
    );
  }
  return new MwsError(
    'state_unwritable',
    `${what} could not be saved in ${dir} (${errorMessage(err)}), so nothing changed. Check that the folder is writable and try again.`,
    { dir, ...(code ? { errno: code } : {}) },
  );
}
