// Commands that only talk to the running instance read the config file as far as finding it, and
// validate it only when the instance does not vouch for it (cli/configLater.ts, instance.ts): it runs
// on exactly this text, with nothing against it. Anything else goes the whole config's way, so a file
// edited since, or broken by hand, is still read and reported as before.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliConfigLater, type LaterConfig } from '../../../src-main/cli/configLater.js';
import { cliConfig } from '../../../src-main/cli/config.js';
import { openControl } from '../../../src-main/cli/instance.js';
import { startAppFromFile, tempDir, type FileApp } from '../../helpers/app.js';
import { until } from '../../helpers/wait.js';
import { textVersion } from '../../../src-main/core/config/textVersion.js';

let running: FileApp | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** The later config with its validation counted. */
async function counted(path: string): Promise<{ later: LaterConfig; loads: () => number }> {
  const later = await cliConfigLater({ config: path });
  let n = 0;
  const load = later.load;
  later.load = () => {
    n++;
    return load();
  };
  return { later, loads: () => n };
}

describe('the config of a command that talks to the running instance (cli/configLater.ts)', () => {
  it('finds the same state folders as the validated config, with and without --demo', async () => {
    const dir = tempDir();
    const cases: Array<Record<string, unknown>> = [
      {},
      { stateDir: join(dir, 's') },
      { stateDir: '~/mws-state-x' },
      { stateDir: join(dir, 's'), upstream: { command: 'node', args: ['x.js'] } },
      { stateDir: join(dir, 's'), upstreams: { a: { command: 'x' }, b: { url: 'https://example.com/mcp' } } },
      { stateDir: join(dir, 's'), upstreams: {} },
    ];
    for (const [i, raw] of cases.entries()) {
      const path = join(dir, `c${i}.json`);
      writeFileSync(path, JSON.stringify(raw));
      for (const demo of [false, true]) {
        const { config } = await cliConfig({ config: path, demo });
        const later = await cliConfigLater({ config: path, demo });
        expect(later.where, JSON.stringify({ raw, demo })).toEqual({
          stateDir: config.stateDir,
          upstreams: Object.keys(config.upstreams).length,
        });
      }
    }
  });

  it('cannot say where for a file that is missing, not JSON or whose "stateDir" is not a path: the whole config decides', async () => {
    const dir = tempDir();
    expect((await cliConfigLater({ config: join(dir, 'none.json') })).where).toBeUndefined();
    for (const text of ['{ "stateDir": ', '[]', '{"stateDir": 5}', '{"stateDir": "  "}']) {
      writeFileSync(join(dir, 'c.json'), text);
      expect((await cliConfigLater({ config: join(dir, 'c.json') })).where, text).toBeUndefined();
    }
  });

  it('skips validation only while the instance runs on exactly this text with nothing against it', async () => {
    running = await startAppFromFile({ upstreams: { demo: { builtin: 'demo' } } });
    const path = running.configPath;
    const original = readFileSync(path, 'utf8');
    const reach = async () => {
      const { later, loads } = await counted(path);
      const c = await openControl(later);
      await c.close();
      expect(c.source).toBe('running instance');
      return loads();
    };
    // The instance reads the file's version as it starts.
    await until(async () => (await running!.app.control.status({})).configVersion ?? undefined, 'the instance knows its file version');
    expect(await reach()).toBe(0);

    // Edited by hand since (a valid edit the instance has not read yet): validated again.
    const edited = original + '\n';
    writeFileSync(path, edited);
    expect(await reach()).toBe(1);
    await until(async () => (await running!.app.control.status({})).configVersion === textVersion(edited), 'the instance applied the edit');
    expect(await reach()).toBe(0);

    // Broken by hand (not JSON, then a misspelt field): once the instance has seen it, status says why,
    // and the CLI validates the file itself (and so says what is wrong with it).
    for (const [broken, why] of [
      [original.replace(/\}\s*$/, ''), /not valid JSON/],
      [JSON.stringify({ ...JSON.parse(original), comand: 'x' }), /comand/],
    ] as const) {
      writeFileSync(path, broken);
      await until(async () => (await running!.app.control.status({})).configProblem, 'the instance saw the broken file');
      expect((await running.app.control.status({})).configProblem).toMatch(why);
      expect(await reach()).toBe(1);
      // Put back as it was: the text in force again, nothing against it.
      writeFileSync(path, edited);
      await until(async () => (await running!.app.control.status({})).configProblem === undefined, 'the instance saw the file put back');
      expect(await reach()).toBe(0);
    }
  });
});
