// A typo in the live config.json while an instance serves: the commands that talk to that instance go
// on with its last good config and say the file needs fixing, instead of refusing every command.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/app.js';
import { runMws, spawnMws, type Running, listeningBase } from '../helpers/processes.js';

let serve: Running | undefined;
afterAll(async () => serve?.kill());

describe('a typo in the live config file', () => {
  it('leaves mws report, mws status and mws ui working on the running instance, each saying the file has an error', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir: join(dir, 'state'), listen: { port: 0 } }));
    serve = spawnMws(['serve', '--config', cfg]);
    const base = await listeningBase(serve);
    // A field misspelt, and then not even JSON: both are typos a person makes.
    for (const text of [
      JSON.stringify({ upstreams: { demo: { builtin: 'demo' } }, stateDir: join(dir, 'state'), listen: { port: 0 }, comand: 'x' }),
      `{ "upstreams": { "demo": { "builtin": "demo" } }, "stateDir": ${JSON.stringify(join(dir, 'state'))}, `,
    ]) {
      writeFileSync(cfg, text);
      for (const args of [['report'], ['status'], ['ui']]) {
        const r = await runMws([...args, '--config', cfg]);
        expect(r.code, `${args[0]}: ${r.err}`).toBe(0);
        expect(r.err).toMatch(new RegExp(`keeps running on its last good config`));
        expect(r.err).toMatch(/config/);
      }
      const ui = await runMws(['ui', '--config', cfg]);
      expect(ui.out).toContain(new URL(base).origin);
      // doctor names the file's error as a problem: it used to call the broken file valid.
      const doctor = await runMws(['doctor', '--config', cfg, '--json']);
      expect(doctor.code, doctor.err).toBe(1);
      const { findings } = JSON.parse(doctor.out) as { findings: Array<{ check: string; level: string; text: string }> };
      const config = findings.find((f) => f.check === 'config');
      expect(config?.level).toBe('problem');
      expect(config?.text).toMatch(/comand|not valid JSON/);
      expect(config?.text).toMatch(/last good config/);
    }
  });

  it('with no instance running, still says what is wrong with the file', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ stateDir: join(dir, 'state'), comand: 'x' }));
    // report and status read the file only as far as finding an instance first (cli/configLater.ts).
    for (const args of [['report'], ['status'], ['status', '--json']]) {
      const r = await runMws([...args, '--config', cfg]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.err, args.join(' ')).toMatch(/comand/);
    }
  });
});
