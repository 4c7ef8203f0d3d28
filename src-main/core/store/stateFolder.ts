// A state folder that cannot be used, said in one sentence: what is wrong with which path, and what to do.
import { MwsError } from '../errors.js';

export function stateFolderError(stateDir: string, err: unknown): MwsError {
  if (err instanceof MwsError) return err;
  const e = err as NodeJS.ErrnoException;
  const where = e.path && e.path !== stateDir ? ` (${e.path})` : '';
  const why =
    e.code === 'EACCES' || e.code === 'EPERM' ? 'cannot be written: permission denied'
    : e.code === 'ENOTDIR' || e.code === 'EEXIST' ? 'is not a folder (a file is in the way)'
    : e.code === 'EROFS' ? 'is on a read-only file system'
    : e.code === 'ENOSPC' ? 'is on a full disk'
    : e.code === 'EISDIR' ? 'holds a folder where a state file should be'
    : `cannot be used (${e.code ?? e.message})`;
  return new MwsError('state_unusable', `The state folder ${stateDir}${where} ${why}. Fix it, or set "stateDir" in the config to a folder you can write.`, { path: e.path ?? stateDir, cause: e.code ?? null });
}
