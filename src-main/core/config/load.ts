// Reads the config file: a missing file means all defaults; anything unreadable or invalid is refused.
import { readFile } from 'node:fs/promises';
import { MwsError, errorMessage } from '../errors.js';
import type { Config } from './schema.js';
import { validateConfig } from './validate.js';
import { migrateConfig } from './migrate.js';
import { defaultStateDir } from './paths.js';
import { jsonProblem } from './jsonText.js';
import { textVersion } from './textVersion.js';
import { parseSharingStrings } from './rawJson.js';

/**
 * `raw` is the file as parsed: edits change it and write it back, so the user's own fields stay as written.
 * `version`: the file's text version (textVersion.ts), which a running instance of it reports in its status.
 */
export type LoadedConfig = { config: Config; path: string; exists: boolean; raw: Record<string, unknown>; version?: string };

export async function loadConfig(path: string, stateDirDefault: string = defaultStateDir()): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { config: validateConfig(undefined, stateDirDefault), path, exists: false, raw: {} };
    }
    throw new MwsError('config_unreadable', `Cannot read the config file ${path}: ${errorMessage(err)}.`, { path });
  }
  let raw: unknown;
  try {
    raw = parseSharingStrings(text);
  } catch (err) {
    throw new MwsError(
      'config_invalid',
      `The config file ${path} is not valid JSON: ${jsonProblem(text, err)}. Fix the file and start again.`,
      { path },
    );
  }
  try {
    return {
      config: validateConfig(raw, stateDirDefault),
      path,
      exists: true,
      raw: migrateConfig(raw) as Record<string, unknown>,
      version: textVersion(text),
    };
  } catch (err) {
    if (err instanceof MwsError) {
      throw new MwsError(err.code, `${path}: ${err.message} Nothing was changed; fix the file and start again.`, {
        ...err.data,
        file: path,
      });
    }
    throw err;
  }
}
