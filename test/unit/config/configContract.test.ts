// The config's contract as data: the published JSON Schema is the one the zod schema makes, `mws init`
// points at it, and a file without a version (written before versions) loads migrated.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText, configSchemaUrl } from '../../../src-main/core/config/jsonSchema.js';
import { CONFIG_VERSION, migrateConfig } from '../../../src-main/core/config/migrate.js';
import { initialConfigText } from '../../../src-main/core/config/defaults.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { loadConfig } from '../../../src-main/core/config/load.js';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { ROOT } from '../../helpers/processes.js';

describe('config.schema.json', () => {
  it('is the file the zod schema generates (run `npm run gen:schema` after changing the schema)', () => {
    expect(readFileSync(join(ROOT, CONFIG_SCHEMA_FILE), 'utf8')).toBe(configJsonSchemaText());
  });

  it('accepts what mws init writes and refuses what the loader refuses', () => {
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync(join(ROOT, CONFIG_SCHEMA_FILE), 'utf8')) as object);
    const init = JSON.parse(initialConfigText(configSchemaUrl())) as unknown;
    expect(validate(init)).toBe(true);
    expect(() => validateConfig(init, '/s')).not.toThrow();
    for (const bad of [
      { colour: 'blue' },
      { listen: { port: 70000 } },
      { agents: [{ id: 'Bad Id' }] },
      { upstreams: { Mail: { url: 'http://x' } } },
      { upstreams: { m: {} } },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
      expect(() => validateConfig(bad, '/s'), JSON.stringify(bad)).toThrow(/config field/);
    }
  });

  it("is what `mws init` puts in $schema: the package's own copy", () => {
    const url = configSchemaUrl()!;
    expect(fileURLToPath(url)).toBe(join(ROOT, CONFIG_SCHEMA_FILE));
    expect(JSON.parse(initialConfigText(url))).toMatchObject({ $schema: url, version: CONFIG_VERSION });
  });
});

describe('config versions', () => {
  it('migrates a file without a version to the current one, leaving the argument as it was', () => {
    const old = { upstreams: { mail: { url: 'http://127.0.0.1:1/mcp' } }, pins: ['mail__send'] };
    const migrated = migrateConfig(old) as Record<string, unknown>;
    expect(migrated).toEqual({ version: CONFIG_VERSION, ...old });
    expect(Object.keys(migrated)[0]).toBe('version');
    expect(old).not.toHaveProperty('version');
    expect(migrateConfig(migrated)).toBe(migrated);
  });

  it('loads an old file migrated, and the first edit writes it back with its version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mws-ver-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ agents: [{ id: 'ci', cap: 3 }] }));
    const loaded = await loadConfig(file, dir);
    expect(loaded.config.agents.map((a) => [a.id, a.cap])).toEqual([
      ['default', 20],
      ['ci', 3],
    ]);
    expect(loaded.raw.version).toBe(CONFIG_VERSION);
    const editor = new ConfigEditor(file, loaded.raw, dir, async () => {});
    await editor.update((raw) => void (raw.compactDescriptions = true));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: CONFIG_VERSION,
      agents: [{ id: 'ci', cap: 3 }],
      compactDescriptions: true,
    });
  });

  it('refuses a file from a newer mws with a sentence that says what to do', () => {
    expect(() => validateConfig({ version: CONFIG_VERSION + 1 }, '/s')).toThrow(
      `config field "version" is newer than this mws understands (up to ${CONFIG_VERSION}); update mws, or write ${CONFIG_VERSION} (got ${CONFIG_VERSION + 1}).`,
    );
    expect(() => validateConfig({ version: 'one' }, '/s')).toThrow(/config field "version" must be a whole number from 1 to/);
  });
});
