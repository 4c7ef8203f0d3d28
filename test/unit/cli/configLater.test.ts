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
import { createApp } from '../../../src-main/core/app.js';
import { systemClock } from '../../../src-main/core/clock.js';
import { MemoryLogger } from '../../../src-main/core/log.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { ConfigEditor } from '../../../src-main/core/config/editor.js';
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
      // The connection's first call answered, kept for `mws status` (no second call for the same answer).
      expect(c.status?.url).toBe(running!.url.replace(/\/mcp$/, ''));
      return loads();
    };
    // The instance reads the file's version as it starts.
    await until(async () => (await running!.app.control.status({})).configInForce, 'the instance knows the version in force');
    expect(await reach()).toBe(0);

    // Edited by hand since (a valid edit the instance has not read yet): validated again.
    const edited = original + '\n';
    writeFileSync(path, edited);
    expect(await reach()).toBe(1);
    await until(async () => (await running!.app.control.status({})).configInForce === textVersion(edited), 'the instance applied the edit');
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

  it('is not vouched for by what the instance read but did not validate, nor by an instance that does not say', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const raw = { stateDir: join(dir, 'state'), listen: { host: '127.0.0.1', port: 0 } };
    writeFileSync(path, JSON.stringify(raw));
    // Started from one text, the file broken before the editor's first look (no version handed over).
    const app = createApp({ config: validateConfig(raw, dir), clock: systemClock, log: new MemoryLogger(), configFile: { path, raw } });
    writeFileSync(path, JSON.stringify({ ...raw, comand: 'x' }));
    await app.start();
    try {
      const status = await until(async () => {
        const s = await app.control.status({});
        return s.configProblem ? s : undefined;
      }, 'the first look at the file');
      expect(status.configInForce).toBeUndefined();
      expect(status.configProblem).toMatch(/comand/);
      const { later, loads } = await counted(path);
      const c = await openControl(later);
      await c.close();
      expect(c.source).toBe('running instance');
      expect(loads()).toBe(1);
    } finally {
      await app.stop();
    }
  });
});

describe("the config editor's account of the file (core/config/editor.ts)", () => {
  it('says what is wrong with the text on disk now, read again after a read that failed', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const good = { stateDir: join(dir, 'state') };
    writeFileSync(path, JSON.stringify(good));
    const editor = new ConfigEditor(path, good, dir, async () => {}, undefined, textVersion(JSON.stringify(good)));
    const misspelt = JSON.stringify({ ...good, comand: 'x' });
    const steps: Array<[string, RegExp | undefined, string | undefined]> = [
      [misspelt, /comand/, JSON.stringify(good)],
      ['{ "stateDir": ', /not valid JSON/, JSON.stringify(good)],
      [misspelt, /comand/, JSON.stringify(good)],
      [JSON.stringify(good), undefined, JSON.stringify(good)],
      ['{', /not valid JSON/, JSON.stringify(good)],
      [JSON.stringify(good), undefined, JSON.stringify(good)],
      [JSON.stringify({ ...good, compactDescriptions: true }), undefined, JSON.stringify({ ...good, compactDescriptions: true })],
    ];
    for (const [text, problem, inForce] of steps) {
      writeFileSync(path, text);
      await editor.refresh();
      expect(editor.problem, text).toSatisfy((p: string | undefined) => (problem ? problem.test(p ?? '') : p === undefined));
      expect(editor.versionInForce, text).toBe(inForce && textVersion(inForce));
    }
  });
});
