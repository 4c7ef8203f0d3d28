// The config is declared once, in configSchema.ts: the running defaults, the published JSON Schema and the
// window's sentences all read from it, so a bound changed there changes the error words and the schema
// file together. An old config's `desktop` block (now the desktop app's preferences) loads headless.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { loadConfig } from '../../../src-main/core/config/load.js';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from '../../../src-main/core/config/jsonSchema.js';
import { fieldRules } from '../../../src-main/core/config/fieldRules.js';
import { CONFIG_BOUNDS } from '../../../src-main/core/config/configSchema.js';
import { fieldError } from '../../../src-main/shared/errorWords.js';
import type { MwsError } from '../../../src-main/core/errors.js';
import { ROOT } from '../../helpers/processes.js';
import { startAppFromFile, tempDir, type FileApp } from '../../helpers/app.js';

type Node = {
  properties?: Record<string, Node>;
  items?: Node;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  deprecated?: boolean;
};
const published = JSON.parse(readFileSync(join(ROOT, CONFIG_SCHEMA_FILE), 'utf8')) as Node;
const at = (...path: string[]): Node => path.reduce<Node>((n, k) => (k === '[]' ? n.items! : n.properties![k]!), published);

const refusal = (raw: unknown): MwsError => {
  try {
    validateConfig(raw, '/tmp/s');
  } catch (err) {
    return err as MwsError;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
};

/** Every range field a form edits: where it sits in the file, and a config that sets it to `v`. */
const RANGES: Array<[string, string[], (v: number) => unknown]> = [
  ['cap', ['agents', '[]', 'cap'], (v) => ({ agents: [{ id: 'a', cap: v }] })],
  ['idleWindowDays', ['agents', '[]', 'idleWindowDays'], (v) => ({ agents: [{ id: 'a', idleWindowDays: v }] })],
  ['port', ['listen', 'port'], (v) => ({ listen: { port: v } })],
  ['minSessions', ['promote', 'minSessions'], (v) => ({ promote: { minSessions: v } })],
  ['minCalls', ['promote', 'minCalls'], (v) => ({ promote: { minCalls: v } })],
  ['windowDays', ['promote', 'windowDays'], (v) => ({ promote: { windowDays: v } })],
  ['pinDecayDays', ['promote', 'pinDecayDays'], (v) => ({ promote: { pinDecayDays: v } })],
];

describe('the range words come from the schema', () => {
  it.each(RANGES)("%s: the window's sentence and the core's say the bounds config.schema.json has", (field, path, raw) => {
    const { minimum, maximum } = at(...path);
    expect(typeof minimum).toBe('number');
    expect(typeof maximum).toBe('number');
    for (const bad of [minimum! - 1, maximum! + 1]) {
      const err = refusal(raw(bad));
      expect(err.message).toContain(`from ${minimum} to ${maximum}`);
      expect(err.data).toMatchObject({ min: minimum, max: maximum });
      const words = fieldError(err);
      expect(words.field).toBe(field);
      expect(words.text).toContain(`from ${minimum} to ${maximum}`);
      expect(words.text).toContain(`(not ${bad})`);
    }
    // Within the bounds it is accepted.
    expect(() => validateConfig(raw(minimum!), '/tmp/s')).not.toThrow();
    expect(() => validateConfig(raw(maximum!), '/tmp/s')).not.toThrow();
  });

  it('restates no bound: the sentence follows the bounds the refusal carries', () => {
    const err = refusal({ agents: [{ id: 'a', cap: 0 }] });
    expect(fieldError({ message: err.message, data: { ...err.data, min: 2, max: 7 } }).text).toBe(
      'The cap is how many tools the agent lists: a whole number from 2 to 7 (not 0).',
    );
    // Without bounds (an error from elsewhere) the sentence says what the core said, not a number of its own.
    expect(fieldError({ message: 'x', data: { path: 'agents[0].cap', reason: 'must be a whole number from 1 to 9', got: '0' } }).text).toBe(
      'This value is not accepted: it must be a whole number from 1 to 9.',
    );
    expect(fieldError({ message: 'x', data: { path: 'cap', reason: 'must be a number', got: 'null' } }).text).toBe(
      'Give the cap: how many tools the agent lists, a whole number.',
    );
  });

  it("says an id's length as the schema has it (the window said 32 while ids of 48 were accepted)", () => {
    const { maxLength } = at('agents', '[]', 'id');
    expect(maxLength).toBe(48);
    expect(() => validateConfig({ agents: [{ id: 'a'.repeat(maxLength!) }] }, '/s')).not.toThrow();
    const err = refusal({ agents: [{ id: 'a'.repeat(maxLength! + 1) }] });
    expect(err.message).toContain(`up to ${maxLength} lowercase letters`);
    expect(fieldError(err).text).toBe(
      `An id may use lowercase letters, digits and dashes (up to ${maxLength}), and starts with a letter or digit — for example "codex".`,
    );
  });

  it('reads the bounds through unions and arrays, and nothing for a path the schema does not know', () => {
    expect(fieldRules(['upstreams', 'mail', 'url'])).toEqual({ maxLength: CONFIG_BOUNDS.textLength });
    expect(fieldRules(['agents', 3, 'approvals'])).toEqual({ values: ['ask', 'allow', 'read-only'] });
    expect(fieldRules(['timeouts', 'listMs'])).toEqual({ min: at('timeouts', 'listMs').minimum, max: at('timeouts', 'listMs').maximum });
    expect(fieldRules(['nope', 0, 'deeper'])).toEqual({});
  });
});

describe('the defaults come from the schema', () => {
  it('runs with the defaults config.schema.json publishes, field by field', () => {
    const running = validateConfig({}, '/tmp/s') as unknown as Record<string, Record<string, unknown>>;
    let checked = 0;
    for (const [key, node] of Object.entries(published.properties!)) {
      // A section's own default is `{}`, filled in field by field (below).
      if ('default' in node && !node.properties) {
        expect(running[key], key).toEqual(node.default);
        checked++;
      }
      for (const [inner, child] of Object.entries(node.properties ?? {})) {
        if (!('default' in child)) continue;
        expect(running[key]?.[inner], `${key}.${inner}`).toEqual(child.default);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
    // The default agent is one parsed by the agent schema with only its id.
    const agent = at('agents', '[]').properties!;
    expect(running.agents).toEqual([
      {
        id: 'default',
        name: 'Default',
        cap: agent.cap!.default,
        idleWindowDays: agent.idleWindowDays!.default,
        approvals: agent.approvals!.default,
        pins: [],
      },
    ]);
  });

  it('is published as committed: config.schema.json is a fresh generation (npm run gen:schema)', () => {
    expect(readFileSync(join(ROOT, CONFIG_SCHEMA_FILE), 'utf8')).toBe(configJsonSchemaText());
  });
});

describe("an old config's desktop block", () => {
  let app: FileApp | undefined;
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  it('loads headless, whatever it holds, and the running config has no desktop part', async () => {
    expect(at('desktop').deprecated).toBe(true);
    for (const desktop of [{ startAtLogin: true, notifyDemotions: false }, 'junk', null, { unknownSwitch: 3 }]) {
      const path = join(tempDir(), 'config.json');
      writeFileSync(path, JSON.stringify({ agents: [{ id: 'a' }], desktop }));
      const loaded = await loadConfig(path, '/tmp/s');
      expect(loaded.config).not.toHaveProperty('desktop');
      expect(loaded.config.agents.map((a) => a.id)).toEqual(['default', 'a']);
      // Kept in the file as written, for the desktop app to move on its first start (prefsMigration.ts).
      expect(loaded.raw.desktop).toEqual(desktop);
    }
  });

  it('stays in the file through a headless edit, and the core neither shows nor takes the switches', async () => {
    app = await startAppFromFile({ desktop: { startAtLogin: true } });
    const view = await app.app.control.settings({});
    expect(view).not.toHaveProperty('desktop');
    await app.app.control.updateSettings({ compactDescriptions: true });
    const saved = JSON.parse(readFileSync(app.configPath, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ compactDescriptions: true, desktop: { startAtLogin: true } });
    await expect(app.app.control.updateSettings({ desktop: { startAtLogin: false } })).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/desktop app's own preferences.*Leave "desktop" out/),
    });
    expect(JSON.parse(readFileSync(app.configPath, 'utf8'))).toEqual(saved);
  });

  it('is left alone by an editor that never read it', async () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, JSON.stringify({ desktop: { notifyApprovals: false } }));
    const editor = new ConfigEditor(path, {}, '/tmp/s', async () => {});
    await editor.update((raw) => void (raw.pins = ['x__y']));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pins: ['x__y'], desktop: { notifyApprovals: false } });
  });
});
