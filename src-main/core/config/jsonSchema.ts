// config.schema.json, generated from the zod schema (configSchema.ts) so editors can complete and check
// the config file. `npm run gen:schema` rewrites the committed file; a test fails when it is stale.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configJsonSchema } from './fieldRules.js';

export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/** The JSON Schema text for the config file, as committed (2-space JSON and a newline). */
export function configJsonSchemaText(): string {
  const published = {
    ...configJsonSchema(),
    title: 'Working Set (mcp-working-set) config',
    description: 'The config file of mws: upstreams, agents and their rules. Every field is optional.',
  };
  return JSON.stringify(published, null, 2) + '\n';
}

/** This package's root (the folder of its package.json), from the sources or from a build. */
export function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'mcp-working-set') return dir;
    } catch {
      // not here; one folder up
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** Where `$schema` in a config points: the installed package's copy, as a file URL editors open. */
export function configSchemaUrl(): string | undefined {
  const root = packageRoot();
  return root === undefined ? undefined : pathToFileURL(join(root, CONFIG_SCHEMA_FILE)).href;
}
