// A state folder that cannot be used, said in one sentence: what is wrong with which path, and what to do.
import { lstat, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { MwsError } from '../errors.js';

export function stateFolderError(stateDir: string, err: unknown): MwsError {
  if (err instanceof MwsError) return err;
  const e = err as NodeJS.ErrnoException;
  const where = e.path && e.path !== stateDir ? ` (${e.path})` : '';
  const why =
    e.code === 'EACCES' || e.code === 'EPERM'
      ? 'cannot be written: permission denied'
      : e.code === 'ENOTDIR' || e.code === 'EEXIST'
        ? 'is not a folder (a file is in the way)'
        : e.code === 'EROFS'
          ? 'is on a read-only file system'
          : e.code === 'ENOSPC'
            ? 'is on a full disk'
            : e.code === 'EISDIR'
              ? 'holds a folder where a state file should be'
              : `cannot be used (${e.code ?? e.message})`;
  return new MwsError(
    'state_unusable',
    `The state folder ${stateDir}${where} ${why}. Fix it, or set "stateDir" in the config to a folder you can write.`,
    { path: e.path ?? stateDir, cause: e.code ?? null },
  );
}

/**
 * Creates the state folder one level at a time. Node's recursive mkdir spins forever on some paths
 * (under /proc, for one), so a bad "stateDir" would hang the app at full CPU instead of saying so.
 */
export async function ensureStateFolder(stateDir: string): Promise<void> {
  const target = resolve(stateDir);
  const missing: string[] = [];
  let at = target;
  for (;;) {
    const s = await stat(at).catch((err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? undefined : Promise.reject(stateFolderError(stateDir, err)),
    );
    if (s) {
      if (!s.isDirectory()) throw stateFolderError(stateDir, Object.assign(new Error('not a directory'), { code: 'ENOTDIR', path: at }));
      break;
    }
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const dir of missing) {
    try {
      await mkdir(dir, { mode: 0o700 });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (
        e.code === 'EEXIST' &&
        (await stat(dir).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      )
        continue;
      if (e.code === 'ENOENT')
        throw new MwsError(
          'state_unusable',
          `The state folder ${stateDir} cannot be created: ${dirname(dir)} does not accept new folders. Set "stateDir" in the config to a folder you can write.`,
          { path: dir },
        );
      throw stateFolderError(stateDir, err);
    }
  }
}

/** The state files a folder holds; a folder in the place of one would fail later with a puzzling message. */
export function stateFilePaths(stateDir: string, agents: string[]): string[] {
  const files = [
    'catalog.json',
    'usage.json',
    'working-set.json',
    'calls.jsonl',
    'calls.1.jsonl',
    'control-token',
    'instance.json',
    'secrets.json',
  ].map((f) => join(stateDir, f));
  for (const a of agents) files.push(join(stateDir, 'agents', `${a}.json`), join(stateDir, 'agents', `${a}.history.jsonl`));
  return files;
}

/** Refuses to start on a folder where a state file should be, naming it. */
export async function checkStateFiles(stateDir: string, agents: string[]): Promise<void> {
  const agentsDir = join(stateDir, 'agents');
  const a = await lstat(agentsDir).catch(() => undefined);
  if (a && !a.isDirectory())
    throw new MwsError(
      'state_unusable',
      `${agentsDir} should be a folder of per-agent state but is a file. Move it away and start again.`,
      { path: agentsDir },
    );
  for (const path of stateFilePaths(stateDir, agents)) {
    const s = await lstat(path).catch(() => undefined);
    if (s?.isDirectory())
      throw new MwsError(
        'state_unusable',
        `${path} is a folder, but Working Set keeps a file there. Move it away (or delete it if it is empty) and start again.`,
        { path },
      );
  }
}
