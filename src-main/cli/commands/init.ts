// `mws init`: writes a starting config file, and never overwrites one that exists.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { initialConfigText } from '../../core/config/defaults.js';
import { resolveConfigPath } from '../../core/config/paths.js';
import { configSchemaUrl } from '../../core/config/jsonSchema.js';
import type { Io } from '../output.js';

export async function runInit(io: Io, opts: { config: string | undefined }): Promise<number> {
  const path = resolveConfigPath(opts.config);
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, initialConfigText(configSchemaUrl()), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      io.err(`mws: ${path} already exists; it was left as it is.`);
      return 1;
    }
    throw err;
  }
  io.out(`Wrote ${path}. Edit "upstreams" in it, then run: mws serve`);
  return 0;
}
