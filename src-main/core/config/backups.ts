// Copies of the config kept next to it before an edit from the window or an import (config.json.<time>.bak),
// so a replaced upstream or a wrong click can be taken back by hand. The newest BACKUPS_KEPT stay.
import { readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Enough to go back a working session of edits; older copies are removed so pins and toggles do not pile up files. */
export const BACKUPS_KEPT = 20;

export const backupStamp = (now: number) => new Date(now).toISOString().replace(/[:.]/g, '-');

/** Writes `text` (the file before the edit) as `path.<time>.bak` and prunes to the newest BACKUPS_KEPT; answers its path. */
export async function writeBackup(path: string, text: string, now: number): Promise<string> {
  const to = `${path}.${backupStamp(now)}.bak`;
  await writeFile(to, text, { mode: 0o600 });
  await prune(path);
  return to;
}

async function prune(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const stamped = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.bak$/;
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.startsWith(prefix) && stamped.test(n.slice(prefix.length)))
    .sort();
  for (const n of names.slice(0, Math.max(0, names.length - BACKUPS_KEPT))) await rm(join(dir, n), { force: true });
}
